"""The genre kit: a genre writes its rules once, as a model on the grid, and the kit derives the rest.

A model (``rules.Model``) is a grid of 0/1 cells and rules from one small vocabulary (``rules.Count``: how
many of these cells are 1, between a low and a high bound, with the rule's code and the sentence a person
reads). From it, with no code of the genre's own:

- ``rules``: the rules checker (every broken rule with its code, a sentence and the cells), and the SAT
  encoding that solves, counts and proves uniqueness on either backend of ``solvers.sat``;
- ``human``: a person's techniques for levels, grades and hints: each rule applied alone ("this wall
  already has its 2 lights"), then trials followed for a few rounds, then trials followed to the end;
- ``generators/kit.py``: a unique puzzle from a random solution and the clues the genre reads off it.
"""
