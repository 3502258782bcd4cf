"""What every rule gets: the source, the DSL names of the module and its functions."""

from typing import Dict, Optional

from .model import Module
from .names import Names
from .source import Source


class Context:
    """The file, its DSL names and functions, and the enabled rules' CheckOptions."""

    def __init__(self, source: Source, options: Optional[Dict[str, str]] = None) -> None:
        self.source = source
        self.names = Names(source.tree, source.nodes())
        self.module = Module(source.tree, self.names)
        self.options = options or {}
