import { IndexArray, RealArray, type DataType } from '@sofa-ts/core';

/** Data types of topology element lists, named as SOFA names them in its component reference. */
export const Positions: DataType<Float64Array> = RealArray(3, 'vector<Vec3d>');
export const TexCoords: DataType<Float64Array> = RealArray(2, 'vector<Vec2d>');
export const Edges: DataType<Uint32Array> = IndexArray(2, 'vector<Edge>');
export const Triangles: DataType<Uint32Array> = IndexArray(3, 'vector<Triangle>');
export const Quads: DataType<Uint32Array> = IndexArray(4, 'vector<Quad>');
export const Tetrahedra: DataType<Uint32Array> = IndexArray(4, 'vector<Tetrahedron>');
export const Hexahedra: DataType<Uint32Array> = IndexArray(8, 'vector<Hexahedron>');
export const Prisms: DataType<Uint32Array> = IndexArray(6, 'vector<Prism>');
export const Pyramids: DataType<Uint32Array> = IndexArray(5, 'vector<Pyramid>');
