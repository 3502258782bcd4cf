"""What every rule gets: the source, the DSL names of the module and its functions."""

from typing import Dict, Optional

from .model import ExternalCalls, Module
from .names import Names
from .source import Source


class Context:
    """The file, its DSL names and functions, the enabled rules' CheckOptions, and
    what the run's other modules pass to its functions (project.py)."""

    def __init__(self, source: Source, options: Optional[Dict[str, str]] = None,
                 external: Optional[ExternalCalls] = None) -> None:
        self.source = source
        self.names = Names(source.tree, source.nodes())
        self.module = Module(source.tree, self.names, external)
        self.options = options or {}
