"""Bundled data (package so importlib.resources finds it installed or editable)."""
