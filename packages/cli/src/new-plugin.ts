import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import pc from 'picocolors';

/**
 * `sofa-ts new plugin NAME --kind KIND`: writes a ready npm package holding one component of that
 * kind (from packages/cli/templates/plugin/<kind>), its scene and a mocha + chai test that checks
 * it against a closed form or finite differences. `npm install && npm test` in the new folder is
 * green at once.
 */

/** The component kinds a plugin can be scaffolded with, and what each template holds. */
export const PLUGIN_KINDS = {
  forcefield: {
    suffix: 'ForceField',
    category: 'ForceField',
    peers: [] as string[],
    summary: 'a force field: a spring from every point to an anchor (addForce, addDForce, addKToMatrix; K checked by finite differences)',
  },
  mass: {
    suffix: 'Mass',
    category: 'Mass',
    peers: [],
    summary: 'a lumped mass per point (addMDx, addMToMatrix, gravity in addForce, accFromF; free fall checked in closed form)',
  },
  mapping: {
    suffix: 'Mapping',
    category: 'Mapping',
    peers: [],
    summary: 'a mapping x_out = c + s·(x_in − c) (apply, applyJ, applyJT, getJ; J by finite differences, the mapped mass in closed form)',
  },
  'projective-constraint': {
    suffix: 'ProjectiveConstraint',
    category: 'ProjectiveConstraint',
    peers: [],
    summary: 'a projective constraint locking one axis of some points (projectResponse, projectVelocity, projectPosition, projectedDofs)',
  },
  'lagrangian-constraint': {
    suffix: 'LagrangianConstraint',
    category: 'Constraint',
    peers: [],
    summary: 'a unilateral Lagrangian constraint: points above a plane (rows J, violation, its own ConstraintResolution)',
  },
  actuator: {
    suffix: 'Actuator',
    category: 'SoftRobots.Inverse',
    peers: ['@sofa-ts/softrobots'],
    summary: 'an inverse-problem actuator: a force along a direction on one point, its magnitude found by the QP',
  },
  effector: {
    suffix: 'Effector',
    category: 'SoftRobots.Inverse',
    peers: ['@sofa-ts/softrobots'],
    summary: 'an inverse-problem effector: brings one coordinate of a point to a goal',
  },
  'ode-solver': {
    suffix: 'OdeSolver',
    category: 'OdeSolver',
    peers: ['@sofa-ts/assembly'],
    summary: 'an ODE solver: symplectic Euler on the compiled mechanical system (M·a = f solved by the linear solver)',
  },
  'linear-solver': {
    suffix: 'LinearSolver',
    category: 'LinearSolver',
    peers: ['@sofa-ts/assembly'],
    summary: 'a linear solver: dense Gaussian elimination on the assembled P·(m·M + b·B + k·K)·P',
  },
  engine: {
    suffix: 'Engine',
    category: 'Engine',
    peers: [],
    summary: 'a data engine: the indices of the points inside a sphere, recomputed when its inputs change',
  },
} as const;

export type PluginKind = keyof typeof PLUGIN_KINDS;

export function isPluginKind(k: string): k is PluginKind {
  return Object.hasOwn(PLUGIN_KINDS, k);
}

/**
 * Third-party dev dependencies of a scaffolded plugin (TypeScript, its test runner). Kept equal to
 * the versions this repository builds and tests with (a test compares them with the root package.json).
 */
export const PLUGIN_DEV_DEPENDENCIES: Readonly<Record<string, string>> = {
  '@types/chai': '^5.2.2',
  '@types/mocha': '^10.0.10',
  '@types/node': '^20.19.0',
  chai: '^6.3.0',
  mocha: '^12.0.3',
  typescript: '~5.9.3',
};

export interface NewPluginOptions {
  kind: PluginKind;
  /** Folder the package folder is created in (default: the working directory). */
  dir?: string;
  /** The component's class name (default: from the package name and the kind). */
  component?: string;
  /**
   * A folder of sofa-ts tarballs (`npm run pack:tarballs`): the plugin's dev dependencies then point
   * at them with `file:` specs, so that it installs without a registry that has sofa-ts.
   */
  tarballs?: string;
  /** Overwrite a non-empty folder. */
  force?: boolean;
}

/** Where the templates are: packages/cli/templates (beside dist/ in the installed package too). */
export function templatesDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'templates', 'plugin');
}

/** The version of the sofa-ts packages this CLI belongs to. */
export function sofaTsVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** npm's rules for a package name (lower case, URL-safe, optional @scope/). */
export function validPackageName(name: string): boolean {
  return name.length <= 214 && /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name);
}

/** `sofa-ts-plugin-drag` → `Drag`, `my-drag` → `MyDrag` (the plugin prefixes are left out). */
export function pascalName(pkg: string): string {
  const base = pkg.replace(/^@[^/]+\//, '').replace(/^sofa-ts-plugin-|^sofa-plugin-|^sofa-ts-/, '');
  const words = base.split(/[^a-zA-Z0-9]+/).filter(Boolean);
  const s = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(s) ? s : `P${s}`;
}

/** The default component class name: PascalName + the kind's suffix (not repeated). */
export function defaultComponentName(pkg: string, kind: PluginKind): string {
  const base = pascalName(pkg);
  const suffix = PLUGIN_KINDS[kind].suffix;
  return base.endsWith(suffix) ? base : base + suffix;
}

/** The package.json of a new plugin. */
export function pluginPackageJson(
  pkg: string,
  kind: PluginKind,
  sceneFile: string,
  component: string,
  deps: { version: string; tarballs?: Record<string, string> },
): Record<string, unknown> {
  const range = `^${deps.version}`;
  const peers = ['@sofa-ts/core', ...PLUGIN_KINDS[kind].peers];
  const peerDependencies = Object.fromEntries(peers.map((p) => [p, range]));
  // Dev dependencies: what building, testing and running the scene need (sofa-ts loads scenes, the
  // CLI gives `sofa-ts run`), by version; or every tarball of a local folder, so that the install
  // needs no registry for sofa-ts (transitive sofa-ts dependencies must be found among them).
  const sofa: Record<string, string> = deps.tarballs ?? Object.fromEntries([...peers, 'sofa-ts', '@sofa-ts/cli'].map((p) => [p, range]));
  const devDependencies = Object.fromEntries(
    Object.entries({ ...PLUGIN_DEV_DEPENDENCIES, ...sofa }).sort(([a], [b]) => a.localeCompare(b)),
  );
  return {
    name: pkg,
    version: '0.1.0',
    description: `A sofa-ts plugin: ${component} (${kind})`,
    keywords: ['sofa-ts', 'sofa-ts-plugin'],
    license: 'UNLICENSED',
    type: 'module',
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    files: ['dist', '!dist/**/*.spec.*', '!dist/*.tsbuildinfo', 'src', '!src/**/*.spec.ts', 'scenes'],
    'sofa-ts': { plugin: true },
    scripts: {
      build: 'tsc -p .',
      prepare: 'tsc -p .',
      test: 'tsc -p . && mocha "dist/**/*.spec.js"',
      scene: `sofa-ts run scenes/${sceneFile} -n 100`,
    },
    peerDependencies,
    devDependencies,
  };
}

/** The sofa-ts tarballs of a folder, by package name (read from each tarball's file name). */
export function tarballsIn(dir: string, relativeTo: string): Record<string, string> {
  if (!fs.existsSync(dir)) throw new Error(`no folder ${dir} (make the tarballs with: npm run pack:tarballs)`);
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).sort()) {
    const m = /^(sofa-ts(?:-([a-z]+))?)-(\d+\.\d+\.\d+(?:-[\w.]+)?)\.tgz$/.exec(f);
    if (!m) continue;
    const name = m[2] ? `@sofa-ts/${m[2]}` : 'sofa-ts';
    let rel = path.relative(relativeTo, path.resolve(dir, f)).split(path.sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    out[name] = `file:${rel}`;
  }
  for (const needed of ['sofa-ts', '@sofa-ts/core', '@sofa-ts/cli']) {
    if (!out[needed]) throw new Error(`no tarball of ${needed} in ${dir} (make them with: npm run pack:tarballs)`);
  }
  return out;
}

/** Writes the plugin package; returns its folder. */
export function scaffoldPlugin(pkg: string, o: NewPluginOptions): string {
  if (!validPackageName(pkg))
    throw new Error(`'${pkg}' is not a valid npm package name (lower case letters, digits, '-', '.', '_', optionally @scope/)`);
  const component = o.component ?? defaultComponentName(pkg, o.kind);
  if (!/^[A-Z][A-Za-z0-9]*$/.test(component))
    throw new Error(`'${component}' is not a valid component name (PascalCase letters and digits, as SOFA names components)`);
  const folderName = pkg.replace(/^@[^/]+\//, '');
  const root = path.resolve(o.dir ?? process.cwd(), folderName);
  if (fs.existsSync(root) && fs.readdirSync(root).length > 0 && !o.force)
    throw new Error(`${root} exists and is not empty (use --force to overwrite)`);
  const sceneFile = `${folderName}.scn`;
  const vars: Record<string, string> = { __PACKAGE__: pkg, __COMPONENT__: component, __SCENE__: sceneFile, __KIND__: o.kind };
  const fill = (text: string): string => text.replace(/__(PACKAGE|COMPONENT|SCENE|KIND)__/g, (m) => vars[m]);
  const templates = templatesDir();
  const write = (rel: string, text: string): void => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  };
  const read = (rel: string): string => fs.readFileSync(path.join(templates, rel), 'utf8');
  // The component must not take the name of something its files import (BaseForceField, ...).
  for (const f of ['common/index.ts.tmpl', `${o.kind}/Component.ts.tmpl`, `${o.kind}/Component.spec.ts.tmpl`]) {
    for (const m of read(f).matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g)) {
      const names = m[1].split(',').map((x) =>
        x
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop()!
          .trim(),
      );
      if (names.includes(component))
        throw new Error(`the component name '${component}' is taken by an import of the template: choose another with --component`);
    }
  }

  const deps = { version: sofaTsVersion(), ...(o.tarballs ? { tarballs: tarballsIn(path.resolve(o.tarballs), root) } : {}) };
  write('package.json', JSON.stringify(pluginPackageJson(pkg, o.kind, sceneFile, component, deps), null, 2) + '\n');
  write('tsconfig.json', read('common/tsconfig.json'));
  write('.gitignore', read('common/gitignore'));
  write('README.md', fill(read('common/README.md')).replace('__SUMMARY__', PLUGIN_KINDS[o.kind].summary));
  write('src/index.ts', fill(read('common/index.ts.tmpl')));
  write(`src/${component}.ts`, fill(read(`${o.kind}/Component.ts.tmpl`)));
  write(`src/${component}.spec.ts`, fill(read(`${o.kind}/Component.spec.ts.tmpl`)));
  write(`scenes/${sceneFile}`, fill(read(`${o.kind}/scene.scn`)));
  return root;
}

/** The CLI action. */
export function newPluginCommand(pkg: string, o: NewPluginOptions, out: NodeJS.WritableStream = process.stdout): number {
  const root = scaffoldPlugin(pkg, o);
  const rel = path.relative(process.cwd(), root) || '.';
  const component = o.component ?? defaultComponentName(pkg, o.kind);
  out.write(`${pc.green('created')} ${rel}: the ${o.kind} ${pc.bold(component)} — ${PLUGIN_KINDS[o.kind].summary}\n`);
  out.write(`  cd ${rel}\n  npm install\n  npm test\n  npx sofa-ts run scenes/${path.basename(root)}.scn\n`);
  if (!o.tarballs)
    out.write(pc.dim(`  (without a registry that has sofa-ts: npm run pack:tarballs in the sofa-ts repository, then --tarballs DIR)\n`));
  return 0;
}
