"""The cable finger driven by the keyboard, as SoftRobots' FingerController: '+' pulls the cable
1 mm more, '-' releases it 1 mm (never below 0)."""

import Sofa.Core
from Sofa.constants import Key

import finger_cable


class KeyboardController(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.cable = kwargs["cable"]

    def onKeypressedEvent(self, event):
        d = self.cable.value.value[0]
        if event["key"] == Key.plus:
            d += 1.0
        elif event["key"] == Key.minus:
            d = max(d - 1.0, 0.0)
        self.cable.value = [d]


def createScene(rootNode):
    finger_cable.createScene(rootNode)
    finger = rootNode.finger
    finger.removeObject(finger.controller)
    finger.addObject(KeyboardController(name="keyboard", cable=finger.cable))
