"""Shading genres' shared person model: techniques (``techniques``) and their compiled kernel (``kernel``)."""
