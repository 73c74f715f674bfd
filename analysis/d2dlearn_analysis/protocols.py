"""d2dlearn's protocols and aggregation rules: names, labels and the programs that offer them.

The library's registry (D2dProtocolRegistry, contrib/d2dlearn/learning/helper) is the only
place a protocol's name maps to a class; build/bin/d2dlearn-print-protocols prints it as JSON,
committed beside this file as protocols.json, and CTest (registry-protocols-json) fails when
the two differ. The figures and tables, and the benchmarks and tests that go through a
program's protocols, take their labels, their order and which protocols they cover from here
(a subset as a rule over the entries' fields: for_program's where), so a protocol added to
the registry is labelled and listed without an edit of them; a list that must stay by hand
says why beside it.
"""

import json
import os

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "protocols.json")

with open(_PATH, encoding="utf-8") as _f:
    REGISTRY = json.load(_f)

#: Every protocol's entry, in the registry's order (the legend order).
PROTOCOLS = REGISTRY["protocols"]
#: Every aggregation rule's entry, in the registry's order.
AGGREGATIONS = REGISTRY["aggregations"]
#: Protocol name -> its label in figures and tables.
LABELS = {p["name"]: p["label"] for p in PROTOCOLS}


def protocol(name):
    """The registry entry of a protocol (KeyError naming it if there is none)."""
    for p in PROTOCOLS:
        if p["name"] == name:
            return p
    raise KeyError("no protocol %r in the registry (%s)" % (name, ", ".join(LABELS)))


def for_program(program, where=None):
    """The names of the protocols a scenario program offers, in the registry's order; with
    where, a test of a registry entry (``lambda p: p["usesD2s"]``), only those it passes."""
    return [p["name"] for p in PROTOCOLS
            if program in p["programs"] and (where is None or where(p))]


def labelled(names):
    """[(name, label)] of protocol names, in the given order."""
    return [(n, LABELS[n]) for n in names]
