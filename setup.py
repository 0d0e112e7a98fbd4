"""The compiled content-stream tokenizer; everything else is in pyproject.toml.

``optional=True``: where it cannot be compiled the package installs without it
and tokenizes in Python (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pytest_textlayer.pdf._tokenize",
            sources=["pytest_textlayer/pdf/_tokenize.c"],
            optional=True,
        )
    ]
)
