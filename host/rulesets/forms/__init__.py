"""The forms ruleset: encounters, rounds in which every turn happens at once, social checks
in attribute order and the eight-step combat round, with Forms as data
(docs/rulesets/forms.md)."""
