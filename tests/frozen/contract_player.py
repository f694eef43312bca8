#!/usr/bin/env python3
"""A program frozen at the contract m3go-conform/2 and m3go-player/1 had before m3go added the
rule options `grey-freeze` and `closed-region-2016`: it follows spec/README.md to the letter on
what it reads ("Unknown keys are errors"), and knows only the keys of that day. Kept unchanged
in the test tree (tests/it/frozen_contract.rs) so that every later m3go is checked to keep it
working: m3go writes the rules in their smallest form (the preset and the options that differ
from it), so an option added since reaches this program only when a case or a user sets it.

The judgement itself is delegated to the m3go command given after the mode (a front end over
`m3go protocol` or `m3go player`); what is frozen here is what the program accepts.

    contract_player.py conform M3GO protocol            # m3go-conform/2
    contract_player.py player  M3GO player ...          # m3go-player/1 (JSON)
    contract_player.py gtp     M3GO player --protocol gtp ...
"""
import json
import os
import subprocess
import sys

# The rule options of the contract this program was written against (not to be updated).
RULE_KEYS = {
    "preset", "attribute", "private-eye", "closed-region", "flower-enclosed", "long-life-eyes",
    "forbidden-owner", "tigers-mouth", "flower-capture-check", "capture-timing", "suicide",
    "suicide-timing", "ko", "schedule", "game-end", "komi", "emergency-conversion",
    "flystone-mode", "flystone-seed", "flystones", "flystone-window", "team-grey-start",
}
# A test may freeze it earlier still: CONTRACT_PLAYER_RULE_KEYS (comma-separated) replaces the
# list, as a program written before those options existed would know them.
if os.environ.get("CONTRACT_PLAYER_RULE_KEYS") is not None:
    RULE_KEYS = set(filter(None, os.environ["CONTRACT_PLAYER_RULE_KEYS"].split(",")))
POSITION_KEYS = {"rules", "size", "move", "diagram", "history", "trailing_passes", "dead",
                 "flystone"}
PRESETS = ["m3go-2020", "m3go-2016", "m3go-2013", "dullstone", "flystone"]


def unknown_key(position):
    """The first key of `position` (or of its rules mapping) this program does not know."""
    for k in position:
        if k not in POSITION_KEYS:
            return "position." + k
    rules = position.get("rules", "m3go-2020")
    if isinstance(rules, dict):
        for k in rules:
            if k not in RULE_KEYS:
                return "position.rules." + k
    return None


def refusal(request, field):
    return {"protocol": request.get("protocol"), "id": request.get("id"),
            "error": {"code": "bad-position", "field": field,
                      "message": "unknown field `%s`" % field.rsplit(".", 1)[-1]}}


def main():
    mode, command = sys.argv[1], sys.argv[2:]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(line):
        child.stdin.write(line + "\n")
        child.stdin.flush()
        return child.stdout.readline().rstrip("\n")

    for line in sys.stdin:
        line = line.rstrip("\n")
        if mode == "gtp":
            if line.startswith("m3go-position "):
                bad = unknown_key(json.loads(line.split(" ", 1)[1]))
                if bad:
                    print("? unknown field `%s`\n" % bad, flush=True)
                    continue
            child.stdin.write(line + "\n")
            child.stdin.flush()
            while True:
                answer = child.stdout.readline()
                sys.stdout.write(answer)
                if answer.strip() == "" or answer == "":
                    break
            sys.stdout.flush()
            continue
        request = json.loads(line)
        if mode == "conform" and request.get("action") == "capabilities":
            # every option of its day, at any value; no option it does not know
            answer = {"id": request["id"], "protocols": ["m3go-conform/2", "m3go-conform/1"],
                      "implementation": {"name": "frozen-contract", "version": "1"},
                      "capabilities": {"presets": PRESETS,
                                       "options": {k: "any" for k in sorted(RULE_KEYS - {"preset"})}}}
            print(json.dumps(answer), flush=True)
            continue
        bad = unknown_key(request["position"]) if "position" in request else None
        print(json.dumps(refusal(request, bad)) if bad else ask(line), flush=True)


main()
