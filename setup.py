"""The compiled content-stream tokenizer, operator loop and text assembly; the rest is in
pyproject.toml.

``optional=True``: where one cannot be compiled the package installs without it
and does that part in Python (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "pytest_textlayer.pdf._tokenize",
            sources=["pytest_textlayer/pdf/_tokenize.c"],
            optional=True,
        ),
        Extension(
            "pytest_textlayer.pdf._textshow",
            sources=["pytest_textlayer/pdf/_textshow.c"],
            depends=["pytest_textlayer/pdf/_walkshared.h"],
            optional=True,
        ),
        Extension(
            "pytest_textlayer.pdf._walkloop",
            sources=["pytest_textlayer/pdf/_walkloop.c"],
            depends=["pytest_textlayer/pdf/_walkshared.h"],
            optional=True,
        ),
    ]
)
