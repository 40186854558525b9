"""Player accounts, optional (docs/web.md, "Accounts"): a guest still plays by link.

``names``: what a name may be and when two names are the same; ``store``: accounts, sessions and failed
sign-ins in the game database; ``service``: signing up, in and out (argon2id, the lockout).
"""
