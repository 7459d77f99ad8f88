"""Background work on games: bot turns."""



from celery import shared_task

from lib import chance

from .bot_moves import bot_choose_move
from .engine import view
from .models import Game, Seat
from .selectors import game_state

# A bot plays its turns one after another in one task; cap it to stay a short task.
MAX_MOVES_PER_TASK = 400


@shared_task(ignore_result=True)
def bot_move(game_id: int, seq: int) -> int:
    """Play the bot seat the game waits on at `seq` (on a worker one move, then the next
    turn is queued; in-process every bot move in a row). Idempotent: does nothing when the
    game moved on (another task or a person got there first). Returns the moves made."""
    from .services import GameError, _after_change, bot_turn_queue, game_abort_stalled, move_play

    rng = chance.new_rng()
    made = 0
    while made < MAX_MOVES_PER_TASK:
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.PLAYING or game.seq != seq:
            break
        if game_abort_stalled(game_id=game_id):
            break
        levels = dict(
            Seat.objects.filter(game=game, bot_level__isnull=False)
            .values_list("index", "bot_level")
        )
        waited = [s for s in game.waiting_on if s in levels]
        if not waited:
            break
        seat = waited[0]
        state = game_state(game)
        move = bot_choose_move(view(state, seat), seat, levels[seat], rng)
        try:
            # The task itself carries on, so the move does not queue another task.
            move_play(game_id=game_id, seq=seq, move=move, bot_seat=seat, queue_bots=False)
        except GameError:
            break  # the game moved on under us: whoever moved queued what follows
        made += 1
        seq += 1
        if not bot_move.app.conf.task_always_eager:
            # A worker plays one move a task: a task run again after its worker died names
            # the seq it is for, so it plays that move (a longer task's seq would be stale);
            # in live games the next move comes after a natural pause (the countdown).
            # In-process tasks would only nest: they play on in this loop.
            bot_turn_queue(game_id=game_id, seq=seq)
            break
    else:
        _after_change(game_id, seq)  # cap reached: hand over to a fresh task
    return made


@shared_task(ignore_result=True)
def bots_watchdog() -> int:
    """Beat, every BLAZE_WATCHDOG_SECONDS: queue again the bot turns a lost task left
    waiting (the rows say which). Returns how many were queued."""
    from .watchdog import bot_turns_requeue

    return bot_turns_requeue()


@shared_task(ignore_result=True)
def review_work() -> str:
    """One slice of the strong bot's review of a finished game (games.reviews), on the
    bots' queue at low priority; queued when a game between people ends, again after
    each unfinished slice, and by beat (the limits may have held one back)."""
    from .reviews import review_work as work

    outcome = work()
    while outcome == "more" and review_work.app.conf.task_always_eager:
        outcome = work()  # in-process: no queue to come back from
    return outcome
