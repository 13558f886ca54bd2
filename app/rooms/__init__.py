"""Rooms: seats and tokens, live games kept in memory, connections and their fan-out."""
