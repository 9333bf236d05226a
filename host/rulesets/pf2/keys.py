"""The keys of a pf2 encounter file's `[[creature]]` table: what the encounter reader
(encounter_schema.py) takes and what `add` offers (language.py), in one place both import, so
that the reader may ask the language which words are options without a circle."""

CREATURE_KEYS = (
    "name",
    "label",
    "team",
    "kind",
    "level",
    "hp",
    "ac",
    "perception",
    "initiative",
    "fort",
    "ref",
    "will",
    "resist",
    "weak",
    "immune",
    "strike",
    "named",
    "hero",
    "count",
    # What a campaign carries from the fight before (campaign.py): as it left the creature.
    "hp_now",
    "wounded",
    "doomed",
    "dying",
)
