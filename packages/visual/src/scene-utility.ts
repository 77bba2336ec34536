import { Str } from '@sofa-ts/core';
import { d, inertVisual } from './define.js';

const M = 'Sofa.Component.SceneUtility';

export const InfoComponent = inertVisual(
  {
    name: 'InfoComponent',
    category: 'SceneUtility',
    module: M,
    description: 'A placeholder component that carries information (SOFA puts it where a component of a missing plugin was).',
  },
  'it does nothing, in SOFA either',
  [],
);

export const MessageHandlerComponent = inertVisual(
  {
    name: 'MessageHandlerComponent',
    category: 'SceneUtility',
    module: M,
    description: "Selects how SOFA's messages are printed: sofa, clang, rich or silent.",
  },
  'the handler is not changed: messages are reported as sofa-ts reports them',
  [d('handler', Str, '', 'message handler: sofa, clang, rich or silent')],
);

export const FileMessageHandlerComponent = inertVisual(
  { name: 'FileMessageHandlerComponent', category: 'SceneUtility', module: M, description: "Writes SOFA's messages to a file." },
  'messages are not written to the file',
  [d('filename', Str, '', 'file the messages are written to')],
);

export const sceneUtilityComponents = [InfoComponent, MessageHandlerComponent, FileMessageHandlerComponent] as const;
