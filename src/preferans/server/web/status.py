"""How this server process is doing: ``GET /health`` (for a load balancer),
``GET /api/status`` and ``GET /status`` (its figures: tables owned, sockets held, lease
renewals, bus lag)."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..table.tables import Tables
from .deps import ClusterDep, StoreDep, TablesDep

router = APIRouter()


@router.get("/health")
def health(store: StoreDep, cluster: ClusterDep) -> Response:
    """For a load balancer: 200 while this process can serve (its database opened, its
    bus connected), else 503."""
    problems = []
    if store.fault is not None:
        problems.append(store.fault.message)
    if cluster is not None and not cluster.bus.connected:
        problems.append("the bus (Redis) is not connected")
    body = {"ok": not problems, "pid": os.getpid(), "problems": problems,
            "node": cluster.node if cluster is not None else None}
    return JSONResponse(body, status_code=503 if problems else 200)


def status_figures(tables: Tables, cluster: Any) -> dict[str, Any]:
    """This process's figures (the cluster's own when several processes share the tables)."""
    if cluster is not None:
        return cluster.status()
    return {"node": None, "pid": os.getpid(), "tables_owned": len(tables.open),
            "sockets_held": sum(len(t.sockets) for t in list(tables.open.values()))}


@router.get("/api/status")
def status_json(tables: TablesDep, cluster: ClusterDep) -> Response:
    """This process's figures: tables owned, sockets held, lease renewals, bus lag."""
    return JSONResponse(status_figures(tables, cluster))


@router.get("/status", response_class=HTMLResponse)
def status_page(tables: TablesDep, cluster: ClusterDep) -> Response:
    """The same figures as a small page, for whoever runs the server."""
    from html import escape

    def rows(figures: dict[str, Any], prefix: str = "") -> list[str]:
        out = []
        for key, value in figures.items():
            if isinstance(value, dict):
                out.extend(rows(value, f"{prefix}{key}."))
            else:
                out.append(f"<tr><th>{escape(prefix + key)}</th>"
                           f"<td>{escape(str(value))}</td></tr>")
        return out

    body = "".join(rows(status_figures(tables, cluster)))
    return HTMLResponse("<!doctype html><meta charset=utf-8><title>Preferans: status"
                        "</title><meta http-equiv=refresh content=5>"
                        "<style>body{font:14px sans-serif;margin:2em}th{text-align:left;"
                        "padding-right:2em}</style><h1>This server process</h1>"
                        f"<table>{body}</table>")
