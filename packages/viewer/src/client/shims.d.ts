// three.js and uPlot are bundled for the page by esbuild; their types are not installed (three's
// types package pulls a physics engine and more), so the page treats them as untyped modules.
declare module 'three';
declare module 'three/addons/controls/OrbitControls.js';
declare module 'uplot';
