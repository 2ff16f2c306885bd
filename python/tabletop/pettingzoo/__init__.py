"""PettingZoo environments: ``from tabletop.pettingzoo import uno_v0; env = uno_v0.env()``."""
