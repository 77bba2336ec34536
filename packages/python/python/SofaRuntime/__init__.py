"""SofaRuntime: plugin loading as SofaPython3 scripts call it. SOFA's modules and the plugins
sofa-ts provides are built in; any other name is reported (sofa-ts plugins are npm packages,
named in a RequiredPlugin of the scene)."""

import Sofa.Helper

_BUILTIN_EXTRA = {"SofaPython3", "SoftRobots", "SoftRobots.Inverse", "Compliant", "CImgPlugin",
                  "ArticulatedSystemPlugin", "MultiThreading", "BeamAdapter"}


def importPlugin(name):
    if name.startswith("Sofa") or name in _BUILTIN_EXTRA:
        return True
    Sofa.Helper.msg_warning("SofaRuntime", "importPlugin('%s'): not a plugin sofa-ts provides; name it in a RequiredPlugin of the scene (an npm plugin package)" % name)
    return False


class PluginRepository(object):
    @staticmethod
    def addFirstPath(path):
        pass

    @staticmethod
    def addLastPath(path):
        pass


class DataRepository(object):
    @staticmethod
    def addFirstPath(path):
        pass

    @staticmethod
    def addLastPath(path):
        pass


def getPythonCallingPoint():
    return Sofa.getPythonCallingPoint()
