/**
 * SOFA's display flags (VisualStyle displayFlags): which families of components the viewer draws.
 * A VisualStyle applies to its node and the subtree below; flags it does not name are inherited.
 * Without any VisualStyle, runSofa shows the visual models only.
 */
export interface DisplayFlags {
  showVisualModels: boolean;
  showBehaviorModels: boolean;
  showForceFields: boolean;
  showInteractionForceFields: boolean;
  showCollisionModels: boolean;
  showBoundingCollisionModels: boolean;
  showMappings: boolean;
  showMechanicalMappings: boolean;
  showWireframe: boolean;
  showNormals: boolean;
}

export const defaultDisplayFlags: DisplayFlags = {
  showVisualModels: true,
  showBehaviorModels: false,
  showForceFields: false,
  showInteractionForceFields: false,
  showCollisionModels: false,
  showBoundingCollisionModels: false,
  showMappings: false,
  showMechanicalMappings: false,
  showWireframe: false,
  showNormals: false,
};

/** The leaf flags each SOFA flag name sets (the group names set several, as in SOFA's DisplayFlags). */
const groups: Record<string, (keyof DisplayFlags)[]> = {
  all: [
    'showVisualModels',
    'showBehaviorModels',
    'showForceFields',
    'showInteractionForceFields',
    'showCollisionModels',
    'showBoundingCollisionModels',
    'showMappings',
    'showMechanicalMappings',
  ],
  visual: ['showVisualModels'],
  visualmodels: ['showVisualModels'],
  behavior: ['showBehaviorModels', 'showForceFields', 'showInteractionForceFields'],
  behaviormodels: ['showBehaviorModels'],
  forcefields: ['showForceFields'],
  interactionforcefields: ['showInteractionForceFields'],
  collision: ['showCollisionModels', 'showBoundingCollisionModels'],
  collisionmodels: ['showCollisionModels'],
  boundingcollisionmodels: ['showBoundingCollisionModels'],
  mapping: ['showMappings', 'showMechanicalMappings'],
  mappings: ['showMappings'],
  visualmappings: ['showMappings'],
  mechanicalmappings: ['showMechanicalMappings'],
  options: ['showNormals', 'showWireframe'],
  wireframe: ['showWireframe'],
  normals: ['showNormals'],
  rendering: [],
  advancedrendering: [],
  processorcollisionmodels: [],
};

/**
 * Applies a displayFlags text (`showVisual hideBehaviorModels showWireframe`) on top of the
 * inherited flags. Returns the unknown words, for a warning.
 */
export function applyDisplayFlags(inherited: DisplayFlags, text: string): { flags: DisplayFlags; unknown: string[] } {
  const flags = { ...inherited };
  const unknown: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const m = /^(show|hide)(.+)$/i.exec(word);
    const set = m ? groups[m[2].toLowerCase()] : undefined;
    if (!m || !set) {
      unknown.push(word);
      continue;
    }
    for (const k of set) flags[k] = m[1].toLowerCase() === 'show';
  }
  return { flags, unknown };
}
