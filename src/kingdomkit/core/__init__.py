"""The game-independent core: protocol, registry, driver, records, conformance checks."""
