"""The ``preferans`` command line.

Each team adds its own command function here with a minimal edit.  Commands
keep their imports inside the function so that ``preferans --help`` stays fast
and one broken module does not take the whole CLI down.

Bad input never ends in a traceback: commands print one ``error: ...`` line on
stderr and exit with code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

app = typer.Typer(
    name="preferans",
    help="Russian Preferans: rules engine, score sheet, solver, computer players and web game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> NoReturn:
    """Print one error line on stderr and exit with code 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (preferans-record/1 JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the score sheet as preferans-sheet/1 JSON.")
    ] = False,
) -> None:
    """Replay a game record and print its score sheet."""
    from .record import RecordError, read_record
    from .record import replay as replay_record
    from .rules import RulesError

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{file} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")
    try:
        game = replay_record(read_record(obj))
    except (RecordError, RulesError) as exc:
        fail(str(exc))
    sheet_json = game.sheet.to_json()
    if as_json:
        typer.echo(json.dumps(sheet_json, ensure_ascii=False, indent=2))
        return
    from .display import print_sheet

    print_sheet(sheet_json, game)


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="Seed of the random deal.")] = 0,
    dealer: Annotated[int, typer.Option(help="The dealer's seat.")] = 0,
    rules: Annotated[str, typer.Option(help="Rules preset (sochi, leningrad, rostov, guide).")] = (
        "sochi"
    ),
    players: Annotated[int, typer.Option(help="3 or 4 players.")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the deal as JSON.")] = False,
) -> None:
    """Show a random deal: every hand and the talon."""
    import random

    from .deal import Deal
    from .rules import Rules, RulesError

    try:
        table = Rules.preset(rules, players=players)
        if not 0 <= dealer < players:
            raise ValueError(f"dealer {dealer} is not a seat (0..{players - 1})")
    except (RulesError, ValueError) as exc:
        fail(str(exc))
    d = Deal.shuffle(table, dealer, random.Random(seed))
    if as_json:
        obj: dict[str, Any] = {
            "dealer": dealer,
            "hands": [h.to_list() for h in d.hands],
            "talon": [str(c) for c in d.talon],
        }
        typer.echo(json.dumps(obj))
        return
    from .display import print_deal

    print_deal(d)


HostOption = Annotated[str, typer.Option(help="Address to listen on.")]
PortOption = Annotated[int, typer.Option(help="Port to listen on.")]
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Database URL or SQLite file (default: PREFERANS_DB, else "
        "$XDG_DATA_HOME/preferans/preferans.db).",
    ),
]


def _serve(host: str, port: int, db: str | None, open_browser: bool, **options: Any) -> None:
    from .server import ServeError, serve

    given = {k: v for k, v in options.items() if v is not None}
    try:
        serve(host, port, db, open_browser=open_browser, **given)
    except ServeError as exc:
        fail(str(exc))


@app.command()
def serve(
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    db: DbOption = None,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Do not open the browser.")
    ] = False,
    bot_delay: Annotated[
        float | None,
        typer.Option("--bot-delay", min=0.0, max=60.0, metavar="SECONDS",
                     help="Pause before each computer move, so the table can animate "
                     "(default 0.5; 0 for load tests)."),
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option("--bot-workers", min=0, max=64, metavar="N",
                     help="Processes the computer players think in (default "
                     "PREFERANS_BOT_WORKERS, else up to 2; 0: a thread of the server)."),
    ] = None,
) -> None:
    """Start the web game (and open it in the browser)."""
    _serve(host, port, db, not no_browser, bot_delay=bot_delay, bot_workers=bot_workers)


@app.command()
def play(
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    db: DbOption = None,
    terminal: Annotated[
        bool, typer.Option("--terminal", help="Play in the terminal instead of the browser.")
    ] = False,
    seed: Annotated[int, typer.Option(help="--terminal: seed of the deals and players.")] = 0,
    rules: Annotated[str, typer.Option(help="--terminal: rules preset.")] = "sochi",
    pool: Annotated[int, typer.Option(help="--terminal: pool (pulya) length.")] = 10,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Serve the game without opening the browser.")
    ] = False,
) -> None:
    """Play: start the web game and open it in the browser (or --terminal)."""
    if not terminal:
        _serve(host, port, db, not no_browser)
        return
    from .rules import Rules, RulesError
    from .terminal import play_terminal

    try:
        table = Rules.preset(rules, pool=pool)
    except RulesError as exc:
        fail(str(exc))
    play_terminal(table, seed=seed)


@app.command()
def match(
    players: Annotated[
        str, typer.Option(help="Player level per seat, comma-separated (easy, normal, hard, "
                          "crazy, random), e.g. hard,normal,normal.")
    ] = "hard,normal,normal",
    deals: Annotated[
        int, typer.Option(help="Duplicate boards (each played once per rotation).")
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the boards and the players.")] = 0,
    rules: Annotated[str, typer.Option(help="Rules preset (sochi, leningrad, rostov, guide).")] = (
        "sochi"
    ),
    workers: Annotated[int, typer.Option(help="Processes playing boards in parallel.")] = 2,
    records: Annotated[
        Path | None, typer.Option(help="Write every game as records (JSON lines) to this file.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    minutes: Annotated[
        float | None, typer.Option(help="Start no new board after this many minutes.")
    ] = None,
) -> None:
    """A duplicate match between computer players: whists per deal with 95% intervals."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from .match import SUMMARY_HEADERS, format_summary, run_match
    from .rules import Rules, RulesError

    try:
        table_rules = Rules.preset(rules)
        lineup = [p for p in players.split(",") if p.strip()]
        if deals < 1:
            raise ValueError("--deals must be at least 1")
        if workers < 1:
            raise ValueError("--workers must be at least 1")
    except (RulesError, ValueError) as exc:
        fail(str(exc))
    console = Console(stderr=True)
    try:
        with Progress(console=console, transient=as_json) as bar:
            task = bar.add_task("boards", total=deals)
            summary = run_match(
                lineup, table_rules, boards=deals, seed=seed, workers=workers, records=records,
                progress=lambda done, total: bar.update(task, completed=done),
                time_limit=None if minutes is None else minutes * 60,
            )
    except ValueError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write records: {exc}")
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    out = Table(title=f"{summary['boards']} duplicate boards, {rules}, seed {seed}")
    for h in SUMMARY_HEADERS:
        out.add_column(h)
    for row in format_summary(summary):
        out.add_row(*row)
    Console().print(out)


@app.command()
def solve(
    file: Annotated[Path, typer.Argument(help="A position (preferans-position/1 JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print value and moves as JSON.")] = False,
) -> None:
    """Solve a position double-dummy: its value and the value of each legal move."""
    from .solver.commands import solve_command

    raise typer.Exit(code=solve_command(str(file), as_json))


@app.command()
def guide(
    out: Annotated[Path, typer.Option("--out", help="The HTML file to write.")] = Path(
        "preferans-guide.html"
    ),
) -> None:
    """Write the rules guide as one static HTML file that works offline."""
    from .guide import render_guide

    try:
        out.write_text(render_guide(standalone=True), encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    typer.echo(f"wrote {out}")


@app.command()
def rules(
    as_json: Annotated[
        bool, typer.Option("--json", help="Every option as JSON: type, choices, meaning, presets.")
    ] = False,
) -> None:
    """Print the presets × options table (Markdown), generated from the rules code."""
    from .rules import options_schema, options_table

    if as_json:
        typer.echo(json.dumps(options_schema(), ensure_ascii=False, indent=2))
    else:
        typer.echo(options_table())


bench_app = typer.Typer(help="Benchmarks.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


@bench_app.command("solver")
def bench_solver(
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="A smaller, faster run.")] = False,
    passes: Annotated[
        int | None,
        typer.Option(
            "--passes",
            help="Timed passes over every set; the fastest counts (default 5, quick 2).",
        ),
    ] = None,
) -> None:
    """Time the double-dummy solver on seeded random positions, and DDS for comparison."""
    from .solver.commands import bench_solver_command

    raise typer.Exit(code=bench_solver_command(as_json, quick, passes))


def main() -> None:
    """Entry point of the ``preferans`` script."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
