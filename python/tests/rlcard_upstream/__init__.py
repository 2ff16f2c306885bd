"""RLCard's own UNO environment tests, copied with their licence, run against
``tabletop.rlcard.faithful`` (a package so that their relative import works)."""
