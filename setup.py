"""The build steps pyproject.toml cannot say: the wheel carries the top-level templates/
and static/ inside the package, as scorekeeper/templates and scorekeeper/static, and each
language's message catalog compiled (its .mo beside its .po).

They stay beside scorekeeper/ in the repository; ``scorekeeper.served_folder`` finds
them in either place; ``make`` compiles the catalogs of a checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
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
        compile_catalogs(Path("scorekeeper", "translations"), Path(self.build_lib))


def compile_catalogs(translations: Path, build_lib: Path) -> None:
    """Each language's messages.po compiled into the built package's messages.mo."""
    for source in sorted(translations.glob("*/LC_MESSAGES/messages.po")):
        with source.open("rb") as po:
            catalog = read_po(po)
        compiled = build_lib / source.with_suffix(".mo")
        compiled.parent.mkdir(parents=True, exist_ok=True)
        with compiled.open("wb") as mo:
            write_mo(mo, catalog)


setup(cmdclass={"build_py": BuildPyWithServedFolders})
