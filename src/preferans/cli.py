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
    from .jsonfile import JsonFileError, read_object_file
    from .record import RecordError, read_record
    from .record import replay as replay_record
    from .rules import RulesError

    try:
        obj = read_object_file(file, "a game record")
        game = replay_record(read_record(obj))
    except (JsonFileError, RecordError, RulesError) as exc:
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
    allowed_host: Annotated[
        list[str] | None,
        typer.Option("--allowed-host", metavar="HOST",
                     help="Another host name the server answers for (repeatable; "
                     "localhost, 127.0.0.1 and the --host address always are; "
                     "*.example.org allowed)."),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option("--allowed-origin", metavar="ORIGIN",
                     help="Another site whose pages may open the game's sockets and send it "
                     "moves, e.g. https://preferans.example.org (repeatable)."),
    ] = None,
    allow_seeds: Annotated[
        bool, typer.Option("--allow-seeds", help="Tests only: let a client choose a new "
                           "game's deal seed.")
    ] = False,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option("--trusted-proxy", metavar="ADDRESS",
                     help="The address of a reverse proxy in front (Caddy, nginx) whose "
                     "X-Forwarded-For is believed (repeatable; default none: a client's own "
                     "address counts, whatever it claims)."),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option("--public-url", metavar="URL",
                     help="The address friends type, behind a reverse proxy, e.g. "
                     "https://pref.example.org (default PREFERANS_PUBLIC_URL): the invite "
                     "and watch links are made at it, its host and origin are allowed "
                     "(docs/hosting.md)."),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, max=256, metavar="N",
                          help="Server processes behind this address (more than one needs "
                          "--bus and a PostgreSQL --db).")
    ] = 1,
    bus: Annotated[
        str | None,
        typer.Option("--bus", metavar="URL",
                     help="redis://host:port: share the tables with the other server "
                     "processes of the same --db (this machine's --workers, or other "
                     "machines behind a load balancer)."),
    ] = None,
    lease_seconds: Annotated[
        float, typer.Option("--lease-seconds", min=1.0, max=120.0, metavar="SECONDS",
                            help="With --bus: how long a table stays with a process that "
                            "stopped answering before another takes it over (default 5).")
    ] = 5.0,
) -> None:
    """Start the web game (and open it in the browser)."""
    _serve(host, port, db, not no_browser, bot_delay=bot_delay, bot_workers=bot_workers,
           allowed_hosts=allowed_host, allowed_origins=allowed_origin,
           allow_seeds=allow_seeds or None, trusted_proxies=trusted_proxy,
           public_url=public_url,
           **({"workers": workers, "bus": bus, "lease_seconds": lease_seconds}
              if bus or workers > 1 else {}))


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
                          "crazy, random), e.g. hard,normal,normal; a level may say its "
                          "decision budget: crazy-budget (the level's), crazy-nobudget, "
                          "crazy-budget=0.8 (seconds).")
    ] = "hard,normal,normal",
    deals: Annotated[
        int | None, typer.Option(help="Duplicate boards (each played once per rotation; "
                                 "default 100).")
    ] = None,
    pulya: Annotated[
        int | None, typer.Option(help="Play whole games to this pool (pulya) instead of "
                                 "one-deal boards, each game once per rotation.")
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="--pulya: games (each played once per rotation; "
                                 "default 10).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the boards and the players.")] = 0,
    rules: Annotated[str, typer.Option(help="Rules preset (sochi, leningrad, rostov, guide).")] = (
        "sochi"
    ),
    workers: Annotated[int, typer.Option(help="Processes playing boards in parallel.")] = 2,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Run the boards or games as Ray tasks on the "
                                 "cluster at this address (default: RAY_ADDRESS if set; "
                                 "'local' starts one here).")
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Write every game as records (JSON lines) to this file.")
    ] = None,
    records_dir: Annotated[
        Path | None, typer.Option("--records-dir", help="Write every game's record to its own "
                                  "file in this directory (replayable by preferans replay).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    minutes: Annotated[
        float | None, typer.Option(help="Start no new board (game) after this many minutes.")
    ] = None,
    budget: Annotated[
        bool, typer.Option("--budget/--no-budget",
                           help="Players think on their levels' clocks (Normal and Hard 0.3 s, "
                           "Crazy 1.2 s per decision), as at the web table; off by default so "
                           "that a match is reproducible.")
    ] = False,
) -> None:
    """A duplicate match between computer players: whists per deal with 95% intervals."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from .match.boards import SUMMARY_HEADERS, format_summary, run_match
    from .match.jobs import RayUnavailable, ray_address_from_env
    from .match.pulya import PULYA_HEADERS, format_pulya_summary, run_pulya_match
    from .rules import Rules, RulesError

    try:
        if pulya is None:
            if games is not None:
                raise ValueError("--games needs --pulya (whole games); boards are --deals")
            table_rules = Rules.preset(rules)
        else:
            if deals is not None:
                raise ValueError("--deals is for one-deal boards; with --pulya give --games")
            if pulya < 1:
                raise ValueError("--pulya must be at least 1")
            table_rules = Rules.preset(rules, pool=pulya)
        count = (100 if deals is None else deals) if pulya is None else (
            10 if games is None else games)
        if count < 1:
            raise ValueError(f"{'--deals' if pulya is None else '--games'} must be at least 1")
        lineup = [p for p in players.split(",") if p.strip()]
        if workers < 1:
            raise ValueError("--workers must be at least 1")
        if records_dir is not None and records_dir.exists() and not records_dir.is_dir():
            raise ValueError(f"--records-dir {records_dir} exists and is not a directory")
    except (RulesError, ValueError) as exc:
        fail(str(exc))
    address = ray_address_from_env(ray)
    console = Console(stderr=True)
    time_limit = None if minutes is None else minutes * 60
    try:
        with Progress(console=console, transient=as_json) as bar:
            if pulya is None:
                task = bar.add_task("boards", total=count)
                summary = run_match(
                    lineup, table_rules, boards=count, seed=seed, workers=workers,
                    records=records, records_dir=records_dir,
                    progress=lambda done, total: bar.update(task, completed=done),
                    time_limit=time_limit, ray_address=address, budgets=budget,
                )
            else:
                if records is not None:
                    raise ValueError("--records (JSON lines) is for boards; with --pulya "
                                     "give --records-dir")
                task = bar.add_task("games × rotations", total=count * table_rules.players)
                summary = run_pulya_match(
                    lineup, table_rules, games=count, seed=seed, workers=workers,
                    records_dir=records_dir,
                    progress=lambda done, total: bar.update(task, completed=done),
                    time_limit=time_limit, ray_address=address, budgets=budget,
                )
    except (RayUnavailable, ValueError) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write records: {exc}")
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    clocks = "budgets on" if budget else "no budgets"
    if pulya is None:
        out = Table(title=f"{summary['boards']} duplicate boards, {rules}, seed {seed}, "
                    f"{clocks}")
        headers, rows = SUMMARY_HEADERS, format_summary(summary)
    else:
        out = Table(title=f"{summary['games']} duplicate games of pulya {pulya} "
                    f"({summary['deals_per_game']} deals a game), {rules}, seed {seed}, "
                    f"{clocks}")
        headers, rows = PULYA_HEADERS, format_pulya_summary(summary)
    for h in headers:
        out.add_column(h)
    for row in rows:
        out.add_row(*row)
    Console().print(out)


@app.command()
def attribute(
    records: Annotated[
        Path, typer.Argument(help="A records directory (preferans match --records-dir) or "
                             "one record file.")
    ],
    players: Annotated[
        str | None, typer.Option(help="The two players to compare, e.g. crazy,hard (default: "
                                 "the two in the records).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Each player's cost per decision type by double-dummy replay of match records."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from .analysis.attribution import AttributionError, attribute, compare, record_files, totals

    try:
        files = record_files(records)
        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("records", total=len(files))
            results = attribute(files, progress=lambda k: bar.update(task, completed=k))
        per_player = totals(results)
        names = list(per_player)
        if players is not None:
            pair = [p.strip().lower() for p in players.split(",") if p.strip()]
            if len(pair) != 2:
                raise AttributionError(f"--players names two players, not {len(pair)}")
            missing = [p for p in pair if p not in per_player]
            if missing:
                raise AttributionError(f"no {', '.join(missing)} in the records (they hold "
                                       f"{', '.join(names)})")
        elif len(names) == 2:
            pair = names
        else:
            pair = []
        versus = compare(results, pair[0], pair[1]) if pair else None
    except AttributionError as exc:
        fail(str(exc))
    summary = {"records": len(files), "players": per_player,
               **({"compare": {"players": pair, "types": versus}} if versus else {})}
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    from .analysis.attribution import TYPES

    shown = pair or names
    out = Table(title=f"cost per deal by decision type, {len(files)} records (double dummy)")
    out.add_column("decision")
    out.add_column("unit")
    for p in shown:
        out.add_column(f"{p} ({per_player[p]['deals']} deals)", justify="right")
    if versus:
        out.add_column(f"{pair[0]} − {pair[1]}", justify="right")
        out.add_column("95% CI (boards)", justify="right")
    groups = [*TYPES, "calls (whists)", "card play (tricks)"]
    for kind in groups:
        unit = "tricks" if "play" in kind else "whists"
        row = [kind, unit]
        for p in shown:
            types = per_player[p]["types"]
            if kind in types:
                t = types[kind]
                row.append(f"{t['cost_per_deal']:.3f} ({t['costly']}/{t['decisions']})")
            else:
                cost = sum(t["cost"] for k, t in types.items()
                           if ("play" in k) == ("play" in kind))
                row.append(f"{cost / max(1, per_player[p]['deals']):.3f}")
        if versus:
            v = versus[kind]
            row += [f"{v['difference_per_deal']:+.3f}",
                    f"[{v['ci95'][0]:+.3f}, {v['ci95'][1]:+.3f}]"]
        out.add_row(*row)
    Console().print(out)
    typer.echo("cells: cost per deal played (costly decisions / decisions with a choice); "
               "the difference per deal is averaged over boards, the players on the same cards")


@app.command()
def solve(
    file: Annotated[Path, typer.Argument(help="A position (preferans-position/1 JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print value and moves as JSON.")] = False,
) -> None:
    """Solve a position double-dummy: its value and the value of each legal move."""
    from .solver.commands import solve_command

    raise typer.Exit(code=solve_command(str(file), as_json))


@app.command()
def analyse(
    file: Annotated[Path, typer.Argument(help="A game record (preferans-record/1 JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print preferans-analysis/1 JSON (docs/analysis.md).")
    ] = False,
) -> None:
    """Analyse every played deal of a record: its double-dummy value, and each card that
    cost its side tricks against best play, with the cards that would have cost nothing."""
    from .analysis.after_deal import analyse as analyse_record
    from .analysis.after_deal import render
    from .jsonfile import JsonFileError, read_object_file
    from .record import RecordError, read_record
    from .rules import RulesError

    try:  # the reader `replay` uses: a file holding anything but a record object is refused
        obj = read_object_file(file, "a game record")
        report = analyse_record(read_record(obj))
    except (JsonFileError, RecordError, RulesError) as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
        return
    typer.echo(render(report))


@app.command()
def guide(
    out: Annotated[Path, typer.Option("--out", help="The HTML file to write.")] = Path(
        "preferans-guide.html"
    ),
    lang: Annotated[str, typer.Option("--lang", help="The guide's language: en or ru.")] = "en",
) -> None:
    """Write the rules guide as one static HTML file that works offline."""
    from .guide import GUIDE_LANGUAGES, render_guide

    if lang not in GUIDE_LANGUAGES:
        fail(f"--lang {lang!r}: the guide is written in {', '.join(GUIDE_LANGUAGES)}")
    try:
        out.write_text(render_guide(standalone=True, lang=lang), encoding="utf-8")
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


puzzles_app = typer.Typer(help="Puzzles: positions where one card keeps what matters.",
                          no_args_is_help=True)
app.add_typer(puzzles_app, name="puzzles")


@puzzles_app.command("generate")
def puzzles_generate(
    records: Annotated[
        list[Path], typer.Argument(help="Records directories (preferans match --records-dir) "
                                   "or record files.")
    ],
    out: Annotated[Path, typer.Option("--out", help="Write the puzzles here (JSON lines).")] = (
        Path("puzzles.jsonl")
    ),
    workers: Annotated[int, typer.Option(help="Processes judging records in parallel.")] = 2,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Judge the records as Ray tasks on the cluster "
                                 "at this address (default: RAY_ADDRESS if set; 'local' starts "
                                 "one here).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Find puzzles in match records: exactly one card keeps what matters, checked by the
    solver; write them with their grade and themes, and print the figures."""
    from rich.console import Console
    from rich.progress import Progress

    from .analysis.attribution import AttributionError, record_files
    from .match.jobs import RayUnavailable, ray_address_from_env
    from .puzzles.generate import generate, write_puzzles

    if workers < 1:
        fail("--workers must be at least 1")
    try:
        files = [f for r in records for f in record_files(r)]
    except AttributionError as exc:
        fail(str(exc))
    try:
        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("records", total=len(files))
            harvest = generate(files, workers=workers, ray_address=ray_address_from_env(ray),
                               progress=lambda k: bar.update(task, completed=k))
        write_puzzles(harvest.puzzles, out)
    except RayUnavailable as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    summary = harvest.summary()
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        typer.echo(f"{summary['kept']} puzzles from {summary['candidates']} positions judged "
                   f"({summary['positions']} card decisions) of {summary['records']} records "
                   f"({summary['share_kept']:.2%} kept; "
                   f"{summary['repeats']} repeats dropped); {summary['cpu_seconds']} CPU s, "
                   f"{summary['puzzles_per_cpu_hour']:.0f} puzzles per CPU hour")
        typer.echo(f"not kept: {summary['rejected']}")
        typer.echo(f"grades: {summary['by_grade']}  themes: {summary['by_theme']}")
        typer.echo(f"wrote {out}")
    for error in harvest.errors[:5]:
        typer.echo(f"skipped {error}", err=True)


@puzzles_app.command("check")
def puzzles_check(
    file: Annotated[Path, typer.Argument(help="A puzzle file (JSON lines, a JSON list or one "
                                         "preferans-puzzle/1 object).")],
    sample: Annotated[
        int | None, typer.Option(help="Check this many puzzles chosen at random (seeded).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of --sample.")] = 0,
) -> None:
    """Re-verify puzzles with the solver: the one card at each step of the line, the
    alternatives' costs, the goal, grade and themes; exit code 1 if any is wrong."""
    import random

    from .puzzles.generate import read_puzzles
    from .puzzles.verify import problems

    try:
        puzzles = read_puzzles(file)
    except (OSError, ValueError) as exc:
        fail(f"cannot read {file}: {exc}")
    if sample is not None and sample < len(puzzles):
        puzzles = random.Random(seed).sample(puzzles, max(0, sample))
    bad = 0
    for k, puzzle in enumerate(puzzles, 1):
        found = problems(puzzle)
        if found:
            bad += 1
            name = puzzle.get("id", f"#{k}") if isinstance(puzzle, dict) else f"#{k}"
            for line in found:
                typer.echo(f"{name}: {line}")
    typer.echo(f"{len(puzzles) - bad} of {len(puzzles)} puzzles confirmed by the solver")
    if bad:
        raise typer.Exit(code=1)


@puzzles_app.command("show")
def puzzles_show(
    file: Annotated[Path, typer.Argument(help="A puzzle file (JSON lines, a JSON list or one "
                                         "preferans-puzzle/1 object).")],
    puzzle_id: Annotated[
        str | None, typer.Option("--id", help="The puzzle to show (default: the first).")
    ] = None,
    solution: Annotated[bool, typer.Option("--solution", help="Show the answer, its line and "
                                           "what every other card costs.")] = False,
) -> None:
    """Show a puzzle: every hand, the trick, the goal (and with --solution the answer)."""
    from .puzzles.generate import read_puzzles
    from .puzzles.render import render

    try:
        puzzles = read_puzzles(file)
    except (OSError, ValueError) as exc:
        fail(f"cannot read {file}: {exc}")
    chosen = [p for p in puzzles if puzzle_id is None or p.get("id") == puzzle_id][:1]
    if not chosen:
        fail(f"no puzzle {puzzle_id} in {file}" if puzzle_id else f"no puzzle in {file}")
    try:
        typer.echo(render(chosen[0], solution=solution))
    except (KeyError, TypeError, ValueError) as exc:
        fail(f"not a puzzle: {exc}")


def main() -> None:
    """Entry point of the ``preferans`` script."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()


rating_app = typer.Typer(help="The rating of players and computer levels.", no_args_is_help=True)
app.add_typer(rating_app, name="rating")


@rating_app.command("seed")
def rating_seed(
    games: Annotated[int, typer.Option(help="Duplicate games per line-up (each pairing of "
                                       "levels gets 6 whole games per duplicate game).")] = 17,
    pulya: Annotated[int, typer.Option(help="The pool (pulya) each game is played to.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the players.")] = 0,
    workers: Annotated[int, typer.Option(help="Processes playing games in parallel.")] = 2,
    minutes: Annotated[
        float | None, typer.Option(help="Start no new duplicate game after this many minutes.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the seed here (default: the package's "
                                  "data/rating/levels.json).")
    ] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Keep the games already in the seed file (--out) and play only the "
                         "duplicate games it lacks.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Seed the computer levels' ratings: whole duplicate pulya games between every three
    levels, rated game by game; write the ratings and the games behind them."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from .rating.seed import LEVELS, SEED_FILE, play_seed_games

    if games < 1 or pulya < 1 or workers < 1:
        fail("--games, --pulya and --workers must be at least 1")
    target = out or SEED_FILE
    earlier = None
    if resume:
        try:
            earlier = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            fail(f"--resume: cannot read the seed file {target}: {exc}")
    console = Console(stderr=True)
    with Progress(console=console, transient=as_json) as bar:
        task = bar.add_task("whole games", total=None)
        try:
            data = play_seed_games(
                games, pool=pulya, seed=seed, workers=workers,
                time_limit=None if minutes is None else minutes * 60,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                earlier=earlier)
        except ValueError as exc:
            fail(f"--resume: {exc}")
    if not data["plays"]:
        fail("no duplicate game was finished in the time given: nothing written")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {target}: {exc}")
    figures = {k: v for k, v in data.items() if k != "plays"}
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
        return
    table = Table(title=f"{data['duplicate_games_per_lineup']} duplicate games a line-up, "
                  f"{data['whole_games']} whole games of pulya {pulya}; "
                  f"{data['cpu_seconds']} CPU s")
    for column in ("level", "rating (mu ± 2 sigma)", "mu", "sigma", "games"):
        table.add_column(column)
    for level in LEVELS:
        r = data["ratings"][level]
        table.add_row(level, r["shown"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", str(r["games"]))
    Console().print(table)
    Console().print(f"games per pairing: {data['games_per_pairing']}; written to {target}")
