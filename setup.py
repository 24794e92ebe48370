"""The build's one step that pyproject.toml cannot declare: the project's pages in docs/ ship inside
the package (as shutbox_cli/docs/), so that `shutbox docs PAGE` prints them after `pip install .`.
Everything else about the build is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DOCS = Path(__file__).resolve().parent / "docs"


class BuildWithDocs(build_py):
    """build_py, then docs/*.md copied into the built package (an editable install reads docs/ itself)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "shutbox_cli" / "docs"
        self.mkpath(str(target))
        for page in sorted(DOCS.glob("*.md")):
            self.copy_file(str(page), str(target / page.name))


setup(cmdclass={"build_py": BuildWithDocs})
