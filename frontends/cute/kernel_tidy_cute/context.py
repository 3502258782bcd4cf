"""What every rule gets: the source, the DSL names of the module and its functions."""

from .model import Module
from .names import Names
from .source import Source


class Context:
    def __init__(self, source: Source, options=None):
        self.source = source
        self.names = Names(source.tree)
        self.module = Module(source.tree, self.names)
        self.options = options or {}
