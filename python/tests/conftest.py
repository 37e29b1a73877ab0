"""Shared fixtures: where the sources and the `pivot` program are (CTest sets
PIVOT_SOURCE_DIR and PIVOT_CLI; PYTHONPATH holds the built module)."""

import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def source_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("PIVOT_SOURCE_DIR",
                                       pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def scenes(source_dir) -> pathlib.Path:
    return source_dir / "scenes"


@pytest.fixture(scope="session")
def cli() -> str:
    path = os.environ.get("PIVOT_CLI")
    if not path:
        pytest.fail("PIVOT_CLI is not set: run the tests through ctest")
    return path
