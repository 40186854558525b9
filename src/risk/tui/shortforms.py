"""What a typed line means: the action notation plus the terminal's short forms, the numbered
choices, and Tab completion. Pure functions of the game: no I/O, nothing changed.

Short forms (each becomes an ordinary action, or an order the session carries out):

    place T             all the armies left to place (setup: one; place T N queues N)
    attack FROM TO      one roll with the most dice
    blitz FROM TO       (or attack FROM TO all) roll with the most dice until it falls or one army is left
    fortify FROM TO     all armies but one (Team RISK: all of your own there, leaving one army)
    move / move min     all armies that may move in / the fewest
    defend              the most dice
    trade               the set held (or a choice when there are several; each set once, with the
                        territory its +2 goes on)
    end                 endattack in the attack phase, endturn in the fortify and end-of-turn phases
    capital T           choose T as your headquarters (Capital RISK; also hq T)
    mission             claim the first mission card you may claim now (Mission RISK)
"""

from __future__ import annotations

from dataclasses import dataclass

from risk.errors import IllegalActionError, NotationError
from risk.odds import invasion
from risk.rules.actions import (
    END_ATTACK,
    END_TURN,
    VERBS,
    Action,
    Attack,
    Capital,
    Claim,
    ClaimMission,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    Trade,
)
from risk.rules.game import Game, Phase, trade_options
from risk.rules.missions import ranked_mission
from risk.rules.variants.missions import claimable_missions
from risk.rules.variants.team import team_at
from risk.tui.render import percent, plural

END_WORDS = ("end", "done", "pass", "e")
ALL_WORDS = ("all", "max")
QUIT_WORDS = ("quit", "exit", "q")
META_COMMANDS = (
    "help",
    "moves",
    "map",
    "hand",
    "cards",
    "players",
    "status",
    "odds",
    "save",
    "log",
    "auto",
    "autodefend",
    "missions",
    "neighbours",
    "neighbors",
    *QUIT_WORDS,
)
SHORT_VERBS = ("blitz", "end")
# Chain fortification can offer hundreds of moves: the menu lists the likeliest ones.
MAX_FORTIFY_CHOICES = 30

Choice = tuple[str, str]  # (command, note)


@dataclass(frozen=True, slots=True)
class BlitzOrder:
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class SetupOrder:
    """``place T N`` during the setup: the player's next N one-army placements go to T."""

    territory: int
    armies: int


class ChoiceNeeded(Exception):
    """Input that could mean several actions: the player picks one from a numbered list."""

    def __init__(self, title: str, entries: list[Choice]) -> None:
        super().__init__(title)
        self.title = title
        self.entries = entries


def most_defence_dice(game: Game) -> int:
    attack = game.pending_attack
    return 1 if attack is None else min(2, game.armies[attack[1]])


def mover(game: Game, source: int) -> int:
    """Whose armies attack or move from ``source``: in Team RISK the current player's own (a teammate's
    stay put), else the owner's (an active neutral ally's, in 2-player RISK)."""
    return game.current if game.units is not None else game.owner[source]


def own_force(game: Game, source: int) -> int:
    """The armies in ``source`` that may attack or move (one must stay behind)."""
    return game.force(source, mover(game, source))


def movable(game: Game, source: int) -> int:
    """How many armies a fortification from ``source`` may move: all but one, and in Team RISK only
    the mover's own (the territory never empty)."""
    return min(own_force(game, source), game.armies[source] - 1)


def most_attack_dice(game: Game, source: int) -> int:
    return max(1, min(3, own_force(game, source) - 1))


def placeable(game: Game, player: int) -> list[int]:
    """Where ``player`` may place reinforcements: the territories it controls (``Game.may_reinforce``;
    in Team RISK not a tied one or a teammate's, unless it controls none)."""
    return [t for t in range(len(game.owner)) if game.may_reinforce(t, player)]


def with_armies(game: Game, player: int) -> list[int]:
    """The territories holding armies of ``player`` (in Team RISK, shared ones too)."""
    if game.units is not None:
        return [t for t, stack in enumerate(game.units) if stack[player]]
    return [t for t, who in enumerate(game.owner) if who == player]


def enemy_of(game: Game, player: int, territory: int) -> bool:
    """Whether ``player`` may attack ``territory`` (as far as ownership goes): not its own, and in Team
    RISK not a teammate's."""
    if game.team is not None:
        return team_at(game, territory) != game.team[player]
    return game.owner[territory] != player


def interpret(game: Game, text: str) -> Action | BlitzOrder | SetupOrder:
    """An action from its notation or a short form.

    Raises ``NotationError`` for text that means nothing, ``IllegalActionError`` for a short form
    that does not apply now, and :class:`ChoiceNeeded` when the player must pick among several.
    Legality of the action itself is left to ``game.apply``.
    """
    words = text.lower().replace(",", " ").split()
    verb, args = words[0], words[1:]
    phase = game.phase
    if verb in END_WORDS and not args:
        if phase == Phase.ATTACK:
            return END_ATTACK
        if phase in (Phase.FORTIFY, Phase.TURN_END):
            return END_TURN
        raise IllegalActionError(f"there is nothing to end now: {_what_now(game)}")
    if verb == "blitz" or (verb == "attack" and args and args[-1] in ("all", "blitz")):
        attack = two_territories(game, "attack", args if verb == "blitz" else args[:-1])
        return BlitzOrder(attack.source, attack.target)
    if verb == "attack" and args and not args[-1].isdigit():
        attack = two_territories(game, "attack", args)
        return Attack(attack.source, attack.target, most_attack_dice(game, attack.source))
    if verb == "place" and args:
        return _place(game, args)
    if verb == "fortify" and args and not args[-1].isdigit():
        fortify = two_territories(game, "fortify", args[:-1] if args[-1] in ALL_WORDS else args)
        return Fortify(fortify.source, fortify.target, max(1, movable(game, fortify.source)))
    if verb in ("move", "occupy") and len(args) <= 1 and (not args or args[0] in (*ALL_WORDS, "min")):
        if phase != Phase.OCCUPY:
            raise IllegalActionError("there is no conquered territory to move into")
        low, high = game.occupy_range()
        return Occupy(low if args == ["min"] else high)
    if verb == "defend" and not args:
        if phase != Phase.DEFEND:
            raise IllegalActionError("there is no attack to defend against")
        return Defend(most_defence_dice(game))
    if verb == "trade" and not args:
        sets = distinct_sets(game, game.to_act)
        if not sets:
            raise IllegalActionError("there is no set in your hand to trade")
        if len(sets) == 1:
            return sets[0].trade
        raise ChoiceNeeded("Which set?", trade_choices(game, game.to_act))
    return game.parse(text)


@dataclass(frozen=True, slots=True)
class HeldSet:
    """One set of cards a player may trade, whatever the order its cards are named in. ``trade``
    names first the card whose territory gets the +2 bonus (the engine gives it to the first card
    named that shows a territory of the player's); ``bonus``: those territories, best first (empty
    when the rules give no +2 now); ``bonus_taken``: the 1993 once-a-turn bonus is used up."""

    trade: Trade
    bonus: tuple[int, ...]
    bonus_taken: bool = False

    def note(self, game: Game) -> str:
        """'+8 armies, +2 on Alaska (or on Peru: name its card first)'."""
        board = game.board
        text = f"+{game.set_value(self.trade.cards)} armies"
        if self.bonus_taken:
            return text + " (no +2: the territory bonus was taken this turn)"
        if not self.bonus:
            return text
        text += f", +2 on {board.name_of(self.bonus[0])}"
        if len(self.bonus) > 1:
            others = " or ".join(board.name_of(t) for t in self.bonus[1:])
            text += f" (or on {others}: name its card first)"
        return text


def distinct_sets(game: Game, player: int) -> list[HeldSet]:
    """Every set ``player`` may trade, once each. ``trade_options`` gives one action per territory
    the bonus could go on (the same cards in other orders); here the bonus goes on a front
    territory first, and the others are named in the note. Under every rulebook that has the bonus
    one territory a trade gets it (2008: once per trade; 1993: once a turn)."""
    board, owner = game.board, game.owner
    rule = game.rules.territory_card_bonus
    taken = rule == "once-per-turn" and game.territory_bonus_used
    seen: set[frozenset[int]] = set()
    sets: list[HeldSet] = []
    for option in trade_options(game, player):
        cards = frozenset(option.cards)
        if cards in seen:
            continue
        seen.add(cards)
        held = [c for c in option.cards if c < len(board) and owner[c] == player]
        if rule == "none" or not held:
            sets.append(HeldSet(option, ()))
        elif taken:
            sets.append(HeldSet(option, (), bonus_taken=True))
        else:
            front = [t for t in held if any(enemy_of(game, player, n) for n in board.neighbours[t])]
            bonus = (*front, *(t for t in held if t not in front))
            # The front-line card first: the +2 goes to the first card named whose territory is held.
            second, third = (c for c in option.cards if c != bonus[0])  # a set's three cards differ
            sets.append(HeldSet(Trade((bonus[0], second, third)), bonus))
    return sets


def trade_choices(game: Game, player: int) -> list[Choice]:
    """The sets ``player`` may trade, each once, as (command, what it gives)."""
    return [(held.trade.text(game.board), held.note(game)) for held in distinct_sets(game, player)]


def _what_now(game: Game) -> str:
    """What the player must do before `end` means something."""
    phase = game.phase
    if phase in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
        return "the setup ends by itself once every army is placed"
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        return "place your armies first; then `end` ends your attacks, and then your turn"
    if phase == Phase.DEFEND:
        return "choose your defence dice first"
    if phase == Phase.OCCUPY:
        return "move armies into the conquered territory first (`move N`)"
    return "answer the question first"


def two_territories(game: Game, verb: str, names: list[str], typed_verb: str = "") -> Attack | Fortify:
    """The source and target named in ``names`` (names may be several words each), as an attack or
    fortification of 1; errors quote ``typed_verb`` (default ``verb``) as the player typed it."""
    try:
        action = game.parse(" ".join([verb, *names, "1"]))
    except NotationError:
        verb = typed_verb or verb
        typed = " ".join([verb, *names])
        raise NotationError(
            f"{typed!r}: expected {verb} FROM TO, two territory names ({_unknown_name(game, names)})"
        ) from None
    assert isinstance(action, (Attack, Fortify))
    return action


def _unknown_name(game: Game, words: list[str]) -> str:
    """What is wrong with a list of territory names: the first word that starts no name."""
    rest = words
    while rest:
        for length in range(len(rest), 0, -1):
            if game.board.find_territory(" ".join(rest[:length])) is not None:
                rest = rest[length:]
                break
        else:
            return f"no territory is called {rest[0]!r}; Tab completes names"
    return "two names are needed" if len(words) < 2 else "too many names"


def _place(game: Game, args: list[str]) -> Place | SetupOrder:
    phase = game.phase
    everything = args[-1] in ALL_WORDS
    names = args[:-1] if everything else args
    place = game.parse(" ".join(["place", *names]))
    assert isinstance(place, Place)
    if names and names[-1].isdigit():
        if phase == Phase.SETUP_PLACE:
            _check_setup_count(game, place)
            if place.armies > 1:
                return SetupOrder(place.territory, place.armies)
        return place
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE) and game.pending:
        return Place(place.territory, game.pending)
    if phase == Phase.SETUP_PLACE and everything:
        return SetupOrder(place.territory, game.setup_armies[game.placing_for])
    return place


def _check_setup_count(game: Game, place: Place) -> None:
    """``place T N`` in the setup: N must be between 1 and the armies left (as when reinforcing)."""
    seat = game.placing_for
    left = game.setup_armies[seat]
    slug = game.board.slug_of(place.territory)
    whose = "you have" if seat == game.to_act else f"{game.players[seat]} has"
    if place.armies < 1:
        raise IllegalActionError(f"place at least 1 army ({whose} {plural(left, 'setup army')} left)")
    if place.armies > left:
        raise IllegalActionError(
            f"{whose} {plural(left, 'setup army')} left, not {place.armies}: "
            f"`place {slug} {left}` puts them all on {game.board.name_of(place.territory)}"
        )


def refusal(game: Game, action: Action) -> str | None:
    """Why ``action`` is refused, where the terminal can say it better than the engine (the rule
    itself rather than a count that only follows from it); ``None``: leave it to the engine."""
    board, phase = game.board, game.phase
    if isinstance(action, Claim) and phase != Phase.CLAIM:
        if phase == Phase.SETUP_PLACE:
            return (
                "every territory is claimed now: place your setup armies on your own territories, one "
                "at a time (`place NAME`, or `place NAME N` for N of them)"
            )
        if phase == Phase.CHOOSE_CAPITAL:
            return "every territory is claimed now: choose your headquarters (`capital NAME`)"
        return "every territory was claimed at the start of the game: to take one, attack it"
    if isinstance(action, Place) and phase == Phase.CLAIM:
        return (
            "every territory is claimed first, one each in turn: claim an empty one (`claim NAME`); you "
            f"place the rest of your {plural(game.setup_armies[game.to_act], 'army')} once all are claimed"
        )
    if isinstance(action, Claim) and game.owner[action.territory] >= 0:
        who = game.players[game.owner[action.territory]]
        return f"{board.name_of(action.territory)} is already claimed by {who}: claim an empty territory"
    if (
        isinstance(action, Place)
        and phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE)
        and game.pending
        and not game.must_trade(game.to_act)
        and not 1 <= action.armies <= game.pending
    ):
        return f"you have {plural(game.pending, 'army')} to place, not {action.armies}"
    if isinstance(action, Defend) and phase == Phase.DEFEND and game.pending_attack is not None:
        target = game.pending_attack[1]
        if action.dice > 2 or action.dice < 1:
            return "the defender rolls 1 or 2 dice, never more: `defend 1` or `defend 2` (Enter: 2)"
        if action.dice > game.armies[target]:
            return f"{board.name_of(target)} has only 1 army, so it defends with 1 die"
    if isinstance(action, Attack) and phase == Phase.ATTACK and game.owner[action.source] == game.current:
        force = own_force(game, action.source)
        if force >= 2 and not 1 <= action.dice <= min(3, force - 1):
            if action.dice > 3 or action.dice < 1:
                return "the attacker rolls 1 to 3 dice"
            return (
                f"{board.name_of(action.source)} has {plural(force, 'army')} and one stays behind, so it "
                f"may roll {'1 die' if force == 2 else f'1 or {force - 1} dice'}"
            )
    if isinstance(action, Fortify) and phase == Phase.FORTIFY:
        source = action.source
        mine = game.force(source, mover(game, source))
        if mine >= 1 and movable(game, source) < 1:
            return (
                f"{board.name_of(source)} has only 1 army, and one army always stays behind: nothing "
                "can move from it"
            )
        most = movable(game, source)
        if mine >= 1 and action.armies > most and game.owner[action.target] == game.owner[source]:
            return f"{board.name_of(source)} can move at most {plural(most, 'army')} (one stays behind)"
    if isinstance(action, Occupy) and phase == Phase.OCCUPY:
        low, high = game.occupy_range()
        if not low <= action.armies <= high:
            span = plural(low, "army") if low == high else f"{low} to {high} armies"
            return f"move in {span}, not {action.armies}"
    return None


# The action types each phase's short list covers; any other legal action (a kind the engine
# added later) is listed as well, in notation, so that it can always be picked by number.
COVERED: dict[Phase, tuple[type, ...]] = {
    Phase.CLAIM: (Claim,),
    Phase.SETUP_PLACE: (Place,),
    Phase.CHOOSE_CAPITAL: (Capital,),
    Phase.REINFORCE: (Trade, Place, ClaimMission),
    Phase.ELIMINATION_TRADE: (Trade, Place, ClaimMission),
    Phase.ATTACK: (Attack, EndAttack, ClaimMission),
    Phase.DEFEND: (Defend,),
    Phase.OCCUPY: (Occupy,),
    Phase.FORTIFY: (Fortify, EndTurn),
    Phase.TURN_END: (ClaimMission, EndTurn),
}


def mission_choices(game: Game) -> list[Choice]:
    return [(f"mission {key}", ranked_mission(key, game.board).card_text) for key in claimable_missions(game)]


def choices(game: Game) -> list[Choice]:
    """The legal actions in short form, as the numbered list a player picks from."""
    entries = _short_choices(game)
    covered = COVERED.get(game.phase, ())
    entries += [(a.text(game.board), "") for a in game.legal_actions() if not isinstance(a, covered)]
    return entries


def _short_choices(game: Game) -> list[Choice]:
    board = game.board
    player, phase = game.to_act, game.phase
    owner, armies = game.owner, game.armies
    own = [t for t in range(len(board)) if owner[t] == player]
    team = game.team

    def front(t: int) -> bool:
        if team is not None:  # Team RISK: the front faces the other team
            return any(team_at(game, n) != team_at(game, t) for n in board.neighbours[t])
        return any(owner[n] != owner[t] for n in board.neighbours[t])

    def placement(t: int) -> Choice:
        # The command says how many it places (one at a time in the setup); the note what is there
        # now (Team RISK: a shared territory shows the player's own armies too).
        mine = game.force(t, player)
        count = f"{armies[t]}" if team is None or mine == armies[t] else f"{armies[t]} ({mine} yours)"
        placed = 1 if phase == Phase.SETUP_PLACE else game.pending
        return f"place {board.slug_of(t)} {placed}", f"has {count}" + (", front" if front(t) else "")

    if phase == Phase.CLAIM:
        return [(f"claim {board.slug_of(t)}", "") for t in range(len(board)) if owner[t] == -1]
    if phase == Phase.SETUP_PLACE:
        # 2-player RISK: the army placed may be a neutral's, on the neutral's territories.
        return [placement(t) for t in range(len(board)) if owner[t] == game.placing_for]
    if phase == Phase.CHOOSE_CAPITAL:
        return [
            (f"capital {board.slug_of(t)}", f"{armies[t]}") for t in sorted(own, key=lambda t: -armies[t])
        ]
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        entries = mission_choices(game)
        entries += trade_choices(game, player)
        if not game.must_trade(player):
            places = placeable(game, player)
            entries += [placement(t) for t in sorted(places, key=lambda t: (not front(t), -armies[t]))]
        return entries
    if phase == Phase.ATTACK:
        attacks = []
        for s in own:
            force = own_force(game, s)
            if force < 2:
                continue
            for t in board.neighbours[s]:
                if enemy_of(game, player, t):
                    # A blitz, as the odds are those of a blitz: the line does what it says.
                    win = invasion(force - 1, armies[t]).attacker_wins
                    note = f"{force} v {armies[t]}, wins {percent(win, uncertain=True)}"
                    attacks.append((-win, f"blitz {board.slug_of(s)} {board.slug_of(t)}", note))
        return [
            *mission_choices(game),
            *((command, note) for _, command, note in sorted(attacks)),
            ("endattack", "stop attacking"),
        ]
    if phase == Phase.DEFEND:
        return [(f"defend {d}", "") for d in range(most_defence_dice(game), 0, -1)]
    if phase == Phase.OCCUPY:
        low, high = game.occupy_range()
        return [(f"move {n}", "") for n in sorted({high, low}, reverse=True)]
    if phase == Phase.FORTIFY:
        moves = []
        # Team RISK: from wherever the player has armies, its own only.
        for s in own if team is None else with_armies(game, player):
            most = movable(game, s)
            if most < 1:
                continue
            for t in game.fortify_targets(s):
                # Interior armies towards the front first.
                rank = (front(s), not front(t), -most)
                command = f"fortify {board.slug_of(s)} {board.slug_of(t)} {most}"
                moves.append((rank, command, "all that can move"))
        entries = [(command, note) for _, command, note in sorted(moves)[:MAX_FORTIFY_CHOICES]]
        return [*entries, ("endturn", "end the turn")]
    if phase == Phase.TURN_END:
        return [*mission_choices(game), ("endturn", "")]
    return []


# How each verb of the numbered choices is typed, for "what you can do now".
USAGES = {
    "claim": "claim NAME",
    "place": "place NAME [N]",
    "trade": "trade",
    "blitz": "blitz FROM TO",
    "attack": "attack FROM TO [DICE]",
    "endattack": "end",
    "fortify": "fortify FROM TO [N]",
    "endturn": "end",
    "defend": "defend 1 or 2",
    "move": "move N",
    "capital": "capital NAME",
    "mission": "mission KEY",
}
# Words the terminal knows besides the verbs: aliases and short forms.
OTHER_WORDS = ("occupy", "hq", "headquarters", "call-off", "?")


def known_word(word: str) -> bool:
    """Whether ``word`` starts any command the terminal knows (in any phase, in any game)."""
    return word in (*VERBS, *SHORT_VERBS, *END_WORDS, *META_COMMANDS, *OTHER_WORDS)


def actions_now(game: Game) -> list[str]:
    """The actions that make sense now, in this game, as typed: 'place NAME [N]', 'trade', ...
    (from the numbered choices, so that an action the engine adds is named too)."""
    usages: list[str] = []
    for command, _ in choices(game):
        verb = command.split()[0]
        usage = USAGES.get(verb, verb)
        if usage not in usages:
            usages.append(usage)
    if game.phase == Phase.ATTACK and "blitz FROM TO" in usages:
        usages.insert(usages.index("blitz FROM TO") + 1, "attack FROM TO [DICE]")
    return usages


def completions(game: Game, line: str, viewer: int) -> list[str]:
    """Words that could complete the last (partial) word of ``line``: verbs, commands, names."""
    board = game.board
    words = line.lower().split()
    # The word under the cursor is the one to complete; after a space, a new one starts.
    prefix = words.pop() if line and not line[-1].isspace() and words else ""
    if not words:
        return [c for c in sorted({*VERBS, *META_COMMANDS, *SHORT_VERBS}) if c.startswith(prefix)]
    verb, args = words[0], words[1:]
    player = viewer if game.is_over else game.to_act
    owner = game.owner
    own = [t for t in range(len(board)) if owner[t] == player]
    territories: list[int] = []
    if verb == "claim" and not args:
        territories = [t for t in range(len(board)) if owner[t] == -1]
    elif verb == "place" and not args:
        if game.phase == Phase.SETUP_PLACE:
            territories = [t for t in range(len(board)) if owner[t] == game.placing_for]
        else:
            territories = placeable(game, player)
    elif verb in ("capital", "hq") and not args:
        territories = own
    elif verb == "mission" and not args and 0 <= player < len(game.mission_cards):
        return sorted(k for k in game.mission_cards[player] if k.startswith(prefix))
    elif verb in ("attack", "blitz"):
        if not args:
            territories = [
                t
                for t in own
                if own_force(game, t) >= 2 and any(enemy_of(game, player, n) for n in board.neighbours[t])
            ]
        elif len(args) == 1 and (source := board.find_territory(args[0])) is not None:
            territories = [n for n in board.neighbours[source] if enemy_of(game, player, n)]
        elif verb == "attack" and len(args) == 2:
            return [w for w in ("1", "2", "3", "all") if w.startswith(prefix)]
    elif verb == "fortify":
        sources = own if game.units is None else with_armies(game, player)
        if not args:
            territories = [t for t in sources if movable(game, t) >= 1]
        elif len(args) == 1 and (source := board.find_territory(args[0])) is not None:
            territories = game.fortify_targets(source) if source in sources else []
    elif (verb in ("neighbours", "neighbors") and not args) or (verb == "odds" and len(args) < 2):
        territories = list(range(len(board)))
    elif verb == "trade" and 0 <= viewer < len(game.players):
        names = [board.card_name(c) for c in game.hands[viewer]]
        return sorted(n for n in names if n.startswith(prefix) and n not in args)
    elif verb == "defend":
        return [w for w in ("1", "2") if w.startswith(prefix)]
    elif verb in ("move", "occupy"):
        return [w for w in ("all", "min") if w.startswith(prefix)]
    return sorted(s for s in (board.slug_of(t) for t in territories) if s.startswith(prefix))
