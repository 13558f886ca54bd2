"""Players that choose actions from what they are shown: their view and their `legal` list.

A bot sees exactly what a human in its seat would see, so it can play over the public
protocol like any other client (tests, load runs, later seat-filling bots).
"""
