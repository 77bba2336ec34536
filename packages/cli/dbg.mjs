import * as S from 'sofa-ts';
const xml = `<Node name="root" dt="0.05">
    <DefaultAnimationLoop/>
    <Node name="MeshVolume" >
        <RegularGridTopology name="HexaTop" n="3 3 3" min="-10 0 -10" max="10 20 10" />
        <TetrahedronSetTopologyContainer name="Container" position="@HexaTop.position" />
        <TetrahedronSetTopologyModifier name="Modifier"/>
        <Hexa2TetraTopologicalMapping input="@HexaTop" output="@Container" swapping="false" />
    </Node>
    <Node name="Deformable">
        <TetrahedronSetTopologyContainer name="Container" src="@../MeshVolume/Container" />
        <MechanicalObject name="mo"/>
    </Node>
</Node>`;
const sc = await S.loadSceneFromString(xml);
const r = sc.root;
const c1 = r.getChild('MeshVolume').objects.find(o=>o.name?.value==='Container' || o.getName?.()==='Container'); const c2=r.getChild('Deformable').objects.find(o=>o.name?.value==='Container' || o.getName?.()==='Container');
for (const c of [c1,c2]) console.log(c.position.value.length, c.tetrahedra.value.length, c.nbPoints?.value, c.getNbPoints?.());
console.log(r.getChild('Deformable').objects.find(o=>o.getName?.()==='mo').size);
const g = r.getChild('MeshVolume').objects.find(o=>o.getName?.()==='HexaTop');
console.log('grid', g.position.value.length, g.constructor.name, c1.position.parent?.owner?.getName?.());
