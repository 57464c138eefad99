"""Gunicorn settings, read by default when gunicorn starts in this folder: the app's own,
which an installed app is served with by ``--config python:scorekeeper.gunicorn_conf``."""

from scorekeeper.gunicorn_conf import logger_class

__all__ = ["logger_class"]
