"""Unit tests of the CuTe DSL frontend (python3 -m unittest discover -s tests)."""
