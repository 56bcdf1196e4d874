"""Makes corvus's Unified Planning engines known to UP without `import corvus`.

Unified Planning (1.3) finds engines in a built-in table, `DEFAULT_ENGINES`,
and has no plug-in entry points. `corvus_up.pth` imports this module when the
interpreter starts; it imports nothing itself and only watches for
`unified_planning.engines.factory`. Once that module is loaded, corvus's
engines are added to its table, so every factory UP creates (and so
`OneshotPlanner(name="corvus")`) has them, last in its preference list. `import corvus` registers them
the ordinary way too (`corvus.up.register`).

The watcher is a plain class (a meta path finder needs only `find_spec`) and
imports `importlib.util` only when UP's factory is imported: `importlib.abc`
would load `importlib.resources`, `pathlib` and `re` at every interpreter start.
"""

import sys

_FACTORY = "unified_planning.engines.factory"
# The same names as corvus.up.ENGINES, which this module cannot import
# before UP is loaded.
_ENGINES = {
    "corvus": ("corvus.up", "CorvusPlanner"),
    "corvus-opt": ("corvus.up", "CorvusOptimalPlanner"),
    "corvus-anytime": ("corvus.up", "CorvusAnytimePlanner"),
}


class _FactoryWatcher:
    def find_spec(self, name, path, target=None):
        if name != _FACTORY:
            return None
        import importlib.util

        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            for engine, where in _ENGINES.items():
                module.DEFAULT_ENGINES.setdefault(engine, where)
                # Last among the engines UP knows, as `factory.add_engine` would put it.
                if engine not in module.DEFAULT_ENGINES_PREFERENCE_LIST:
                    module.DEFAULT_ENGINES_PREFERENCE_LIST.append(engine)

        spec.loader.exec_module = exec_module
        return spec


if _FACTORY not in sys.modules:
    sys.meta_path.insert(0, _FactoryWatcher())
