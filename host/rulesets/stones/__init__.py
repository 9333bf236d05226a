"""The `stones` ruleset: alternating team turns, Speaking Stone cards paying for abilities,
and character activations of Fuse, Move and Standard Attack or Ability
(docs/rulesets/stones.md)."""
