"""The one build step pyproject.toml cannot say: the wheel carries the top-level
templates/ and static/ inside the package, as scorekeeper/templates and scorekeeper/static.

They stay beside scorekeeper/ in the repository; ``scorekeeper.served_folder`` finds
them in either place.
"""

from __future__ import annotations

import os

from setuptools import setup
from setuptools.command.build_py import build_py

SERVED_FOLDERS = ("templates", "static")


class BuildPyWithServedFolders(build_py):
    """build_py, then the served folders copied into the built package."""

    def run(self) -> None:
        super().run()
        # An editable install serves the checkout's own folders.
        if self.editable_mode:
            return
        for folder in SERVED_FOLDERS:
            self.copy_tree(folder, os.path.join(self.build_lib, "scorekeeper", folder))


setup(cmdclass={"build_py": BuildPyWithServedFolders})
