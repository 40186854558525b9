"""Notifications (docs/web.md, "Notifications"): a player told of their move, a defence wanted, an
attack, the game's end, by a channel of their choice, with the game page closed.

``events``: the events, made from the master's announcements and the published game; ``outbox``: the
subscriptions and the durable queue in the game database; ``channels``: the interface a channel
implements and the e-mail channel; ``sender``: the worker that sends what is queued, with backoff.
"""
