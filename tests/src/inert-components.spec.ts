import { expect } from 'chai';
import * as path from 'node:path';
import { InertComponent, createRegistry, loadScene, loadSceneFromString, visual, type BaseMechanicalState } from 'sofa-ts';
import { corpusRoot, hasCorpus } from './corpus-test-support.js';

/** The GUI, rendering and settings components of SOFA's examples: they load, keep their Data, do nothing. */

const older = new Set(['VisualStyle', 'VisualGrid', 'LineAxis', 'OglSceneFrame', 'OglLabel', 'DefaultVisualManagerLoop', 'OglModel']);
const inertClasses = visual.visualComponents.filter((c) => !older.has(c.name));

describe('inert scene components (lights, shaders, settings, cameras, visual models)', () => {
  it('each says in its help that it is inert in a batch run, and what is not done', () => {
    const registry = createRegistry();
    expect(inertClasses.length).to.be.greaterThan(80);
    for (const cls of inertClasses) {
      const entry = registry.find(cls.name);
      expect(entry, cls.name).to.not.equal(undefined);
      expect(entry!.info.description, cls.name).to.match(/Inert in a batch run: \S.+\.$/);
    }
  });

  it('each loads with its defaults in a scene that steps, and leaves the state alone', async () => {
    const elements = inertClasses.map((c) => `<${c.name} name="the${c.name}"/>`).join('\n      ');
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 0"><DefaultAnimationLoop/>
      <Node name="body"><MechanicalObject name="dofs" position="1 2 3"/>
      ${elements}
      </Node></Node>`);
    expect(scene.warnings.map((w) => w.message)).to.deep.equal([]);
    scene.step(3);
    for (const c of inertClasses) {
      const o = scene.get(`/body/the${c.name}`);
      expect(o, c.name).to.be.instanceOf(InertComponent);
      expect(o!.className).to.equal(c.name);
    }
    expect(Array.from(scene.get<BaseMechanicalState>('/body/dofs')!.x)).to.deep.equal([1, 2, 3]);
  });

  it("reads the attributes SOFA's examples give them, links included", async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01"><DefaultAnimationLoop/>
      <BackgroundSetting color="0.901960784 0.925490196 0.964705882"/>
      <ViewerSetting resolution="1200 800" fullscreen="0" objectPickingMethod="Selection buffer"/>
      <AttachBodyButtonSetting button="Right" stiffness="5000" arrowSize="0.2"/>
      <FixPickedParticleButtonSetting button="Left" stiffness="10000"/>
      <StatsSetting logTime="1"/>
      <TaskSchedulerSettings nbThreads="8"/>
      <LightManager name="lightManager" listening="1" shadows="1" softShadows="0" ambient="1 1 1"/>
      <SpotLight name="spot" color="1 0 0" position="0 10 0" direction="0 -1 0" cutoff="25" exponent="1" shadowTextureSize="512" drawSource="1"/>
      <DirectionalLight color="0 1 0" direction="1 1 0"/>
      <PositionalLight color="0 0 1" position="1 2 3" attenuation="0.1"/>
      <OglShadowShader/>
      <OglShader fileFragmentShaders="['shaders/toonShading.frag']" fileVertexShaders="['shaders/toonShading.vert']"/>
      <OglShaderDefineMacro id="USE_TEXTURE" indexShader="1"/>
      <OglFloatVariable id="uZoom" value="0.5"/>
      <OglFloat4Variable name="c" value="0 1 0 1"/>
      <OglTexture textureFilename="textures/ice_chess.bmp" indexShader="0" id="colorTexture" textureUnit="0" repeat="true"/>
      <OglInt4Attribute id="indices" value="0 0 0 0 0 1 0 0"/>
      <RecordedCamera projectionType="0" navigationMode="1" cameraPositions="-35.5 12.1 37.8" cameraOrientations="0.17 0.06 -0.06 -0.98" startTime="20" endTime="100" rotationMode="1"/>
      <OglViewport screenPosition="300 0" screenSize="400 400" cameraRigid="-1 2.7 13 -0 -0 -0 1"/>
      <Node name="body">
        <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0"/>
        <MeshTopology name="mesh" position="@dofs.position" triangles="0 1 2"/>
        <TrailRenderer template="Vec3" position="@dofs.position" nbSteps="200" color="HSV" thickness="10"/>
        <VisualMesh position="@dofs.position" topology="@mesh"/>
        <DataDisplay name="data" pointData="1 2 3"/>
        <OglColorMap colorScheme="Blue to Red" showLegend="true" min="@data.currentMin" max="@data.currentMax"/>
        <Visual3DText text="hello" position="0 1 0" scale="0.2" color="red"/>
        <VisualPointCloud position="@dofs.position" drawMode="Sphere" sphereRadius="0.1" color="navy"/>
        <VisualVectorField position="@dofs.position" vector="@dofs.position" drawMode="Arrow" vectorScale="2" color="orange"/>
        <ClipPlane name="Clip" normal="1 0 0"/>
        <OglModel name="v1" position="@dofs.position" triangles="0 1 2"/>
        <OglModel name="v2" position="@dofs.position" triangles="0 1 2"/>
        <MergeVisualModels name="merged" nb="2" input1="@v1" input2="@v2" color="red"/>
        <TextureInterpolation template="Vec1" input_states="1 2 3" input_coordinates="@dofs.position" min_value="0" max_value="10" manual_scale="1"/>
      </Node></Node>`);
    expect(scene.warnings.map((w) => w.message)).to.deep.equal([]);
    const spot = scene.get('/spot')!;
    expect(Array.from(spot.findData('color')!.value as Float64Array)).to.deep.equal([1, 0, 0, 1]);
    expect(spot.findData('cutoff')!.value).to.equal(25);
    expect(scene.get('/body/merged')!.findLink('input2')!.get()).to.equal(scene.get('/body/v2'));
    expect(scene.get('/body/VisualMesh1')!.findLink('topology')!.get()).to.equal(scene.get('/body/mesh'));
    scene.step(2);
  });

  (hasCorpus ? it : it.skip)("SOFA's example scenes of these components load and step", async function () {
    this.timeout(120000);
    const examples = path.join(corpusRoot, 'sofa', 'examples');
    const scenes = [
      'Component/Visual/ClipPlane.scn',
      'Component/Visual/CylinderVisualModel.scn',
      'Component/Visual/LightManager.scn',
      'Component/Visual/LightMax.scn',
      'Component/Visual/MergeVisualModels.scn',
      'Component/Visual/NavigationRecordedCamera.scn',
      'Component/Visual/OglShadowShader_SpotLight2.scn',
      'Component/Visual/OglViewport.scn',
      'Component/Visual/OrderIndependentTransparency.scn',
      'Component/Visual/PointSplatModel.scn',
      'Component/Visual/PostProcessManager_DepthOfField.scn',
      'Component/Visual/TrailRenderer.scn',
      'Component/Visual/Visual3DText.scn',
      'Component/Visual/VisualBoundingBox.scn',
      'Component/Visual/VisualMesh.scn',
      'Component/Engine/GL/TextureInterpolation.scn',
      'Component/SceneUtility/AddResourceRepository.scn',
      'Component/SceneUtility/Gravity.scn',
      'Component/Playback/ReadState.scn',
      'Demos/fallingBeamLagrangianCollision.scn',
      'Tutorials/StepByStep/Visual/6_Visual.scn',
    ];
    for (const s of scenes) {
      const scene = await loadScene(path.join(examples, s), { dataPaths: [path.join(corpusRoot, 'sofa', 'share'), examples] });
      scene.step(2);
    }
  });
});
