/** SOFA's `.regression-tests` list files.
 *
 *  ```
 *  # comment
 *  <reference root, relative to the list file's folder>
 *  <scene> <steps> <epsilon> <meca_in_mapping 0|1> <last_step_only 0|1>
 *  ```
 *  Blank lines and lines starting with `#` are skipped; scenes are relative to the list's folder.
 *  SOFA's topology lists have 4 columns (no last_step_only: every step is dumped); a 4-column
 *  line reads last_step_only = 0. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SofaError } from '@sofa-ts/core';
import { parseSofaNumber } from './number-format.js';

export interface RegressionEntry {
  /** Absolute path of the scene file. */
  scene: string;
  /** The scene as written in the list: relative to the list's folder, `/`-separated. */
  sceneRelative: string;
  /** Number of simulation steps to run. */
  steps: number;
  /** Largest accepted ERRORBYDOF. */
  epsilon: number;
  /** Also compare mechanical states that sit under a mapping. */
  mecaInMapping: boolean;
  /** References hold only the first and the last frame. */
  lastStepOnly: boolean;
  /** 1-based line in the list file. */
  line: number;
}

export interface RegressionList {
  /** Absolute path of the list file. */
  file: string;
  /** Absolute folder the scenes and the reference root are relative to. */
  dir: string;
  /** Absolute reference root folder. */
  referenceRoot: string;
  entries: RegressionEntry[];
}

/** Read and parse a list file. */
export function readRegressionList(filePath: string): RegressionList {
  let text: string;
  try {
    text = fs.readFileSync(filePath, 'utf8');
  } catch (cause) {
    throw new SofaError(`cannot read regression list ${filePath}`, { cause });
  }
  return parseRegressionList(text, path.resolve(filePath));
}

/** Parse list text; `filePath` locates the relative paths and names the file in errors. */
export function parseRegressionList(text: string, filePath: string): RegressionList {
  const file = path.resolve(filePath);
  const dir = path.dirname(file);
  let referenceRoot: string | undefined;
  const entries: RegressionEntry[] = [];

  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const content = lines[i].replace(/\r$/, '');
    const trimmed = content.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const fields = fieldsOf(content);
    const at = (k: number) => ({ file, line, column: fields[k]?.column ?? content.length + 1 });

    if (referenceRoot === undefined) {
      // Paths with spaces are not representable in this format: fields are space separated.
      if (fields.length !== 1) {
        throw new SofaError(`the first entry must be the reference root folder alone, found ${fields.length} fields`, { loc: at(1) });
      }
      referenceRoot = path.resolve(dir, fields[0].text);
      continue;
    }

    if (fields.length !== 5 && fields.length !== 4) {
      throw new SofaError(`expected 'scene steps epsilon meca_in_mapping [last_step_only]' (4 or 5 fields), found ${fields.length}`, {
        loc: at(Math.min(fields.length, 5)),
      });
    }
    const [sceneField, stepsField, epsField, mecaField] = fields as [Field, Field, Field, Field];
    const lastField = fields[4];
    if (!/^\d+$/.test(stepsField.text)) {
      throw new SofaError(`steps must be a non-negative integer, got '${stepsField.text}'`, { loc: at(1) });
    }
    const epsilon = parseSofaNumber(epsField.text);
    if (epsilon === undefined || !Number.isFinite(epsilon) || epsilon < 0) {
      throw new SofaError(`epsilon must be a finite number >= 0, got '${epsField.text}'`, { loc: at(2) });
    }
    entries.push({
      scene: path.resolve(dir, sceneField.text),
      sceneRelative: sceneField.text.replace(/\\/g, '/'),
      steps: Number(stepsField.text),
      epsilon,
      mecaInMapping: flag(mecaField, 'meca_in_mapping', at(3)),
      lastStepOnly: lastField ? flag(lastField, 'last_step_only', at(4)) : false,
      line,
    });
  }

  if (referenceRoot === undefined) {
    throw new SofaError('regression list has no reference root line', { loc: { file, line: lines.length, column: 1 } });
  }
  return { file, dir, referenceRoot, entries };
}

interface Field {
  text: string;
  column: number;
}

function fieldsOf(line: string): Field[] {
  const fields: Field[] = [];
  const re = /\S+/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) fields.push({ text: m[0], column: m.index + 1 });
  return fields;
}

function flag(field: Field, name: string, loc: { file: string; line: number; column: number }): boolean {
  if (field.text === '0') return false;
  if (field.text === '1') return true;
  throw new SofaError(`${name} must be 0 or 1, got '${field.text}'`, { loc });
}
