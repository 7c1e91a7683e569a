"""Packaging details pyproject.toml cannot say: the DTDs are kept once, in the top-level
dtd/ folder, and installed inside the package as acescore/dtd/."""

from setuptools import find_namespace_packages, setup

setup(
    packages=find_namespace_packages(include=["acescore", "acescore.*"], exclude=["*.__pycache__"])
    + ["acescore.dtd"],
    package_dir={"acescore.dtd": "dtd"},
)
