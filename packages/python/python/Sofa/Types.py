"""Sofa.Types: SOFA's small value types as SofaPython3 names them (RGBAColor, BoundingBox)."""


class RGBAColor(list):
    def __init__(self, r=1.0, g=1.0, b=1.0, a=1.0):
        list.__init__(self, [r, g, b, a])

    def r(self):
        return self[0]

    def g(self):
        return self[1]

    def b(self):
        return self[2]

    def a(self):
        return self[3]


class BoundingBox(list):
    def __init__(self, minimum=(0, 0, 0), maximum=(0, 0, 0)):
        list.__init__(self, [list(minimum), list(maximum)])

    def getMin(self):
        return self[0]

    def getMax(self):
        return self[1]
