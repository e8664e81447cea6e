"""The route solver (docs/routes.md, The solver): a SolveProblem (problem.ts) as JSON on stdin, a SolvePlan on stdout.

VROOM does the work: the problem becomes VROOM's JSON problem (jobs, shipments, vehicles, one matrix profile), the
solution is read back step by step. VROOM says nothing of why a task stayed unassigned, so each one gets the first
constraint it fails on its own (skills, capacity, time) or, when it would fit alone, "no feasible slot".
"""

import json
import math
import os
import sys
import tempfile
import time
from datetime import timedelta
from importlib.metadata import version

import vroom

EXPLORATION_LEVEL = 5
THREADS = 2
# A capacity of "no limit": far above any order's amount, within VROOM's integer range.
NO_LIMIT = 2_000_000_000
DIMENSIONS = ("weightGrams", "volumeCm3", "parcels")
DIMENSION_REASONS = {
    "weightGrams": "too heavy for every driver",
    "volumeCm3": "too large for every driver",
    "parcels": "too many parcels for every driver",
}


def amount(a):
    return [int(a[d]) for d in DIMENSIONS]


def windows(ws):
    return [[max(0, int(f)), max(0, int(t))] for f, t in sorted(ws)]


def stop(s, task_id):
    out = {"id": task_id, "location_index": s["location"], "service": int(s["serviceSeconds"])}
    if s["windows"]:
        out["time_windows"] = windows(s["windows"])
    return out


def vroom_problem(p):
    """VROOM's JSON problem; skills are integers there, one per name."""
    names = sorted({s for t in p["jobs"] + p["shipments"] + p["vehicles"] for s in t["skills"]})
    skill = {name: i + 1 for i, name in enumerate(names)}
    tasks = len(p["jobs"]) + 2 * len(p["shipments"])
    vehicles_count = max(1, len(p["vehicles"]))
    max_tasks = math.ceil(tasks / vehicles_count * 1.2) if p["balance"] else None
    # With objective "vehicles", one more vehicle costs more than any route can: the whole of every shift.
    fixed = sum(v["shift"][1] - v["shift"][0] for v in p["vehicles"]) + 1 if p["objective"] == "vehicles" else 0

    vehicles = []
    for v in p["vehicles"]:
        out = {
            "id": v["driverId"],
            "profile": "car",
            "capacity": [NO_LIMIT if v["capacity"][d] is None else int(v["capacity"][d]) for d in DIMENSIONS],
            "skills": [skill[s] for s in v["skills"]],
            "time_window": [max(0, int(v["shift"][0])), max(0, int(v["shift"][1]))],
            "breaks": [
                {"id": b["id"], "time_windows": windows(b["windows"]), "service": int(b["seconds"])}
                for b in v["breaks"]
            ],
        }
        if v["start"] is not None:
            out["start_index"] = v["start"]
        if v["end"] is not None:
            out["end_index"] = v["end"]
        if v["maxTravelSeconds"] is not None:
            out["max_travel_time"] = int(v["maxTravelSeconds"])
        if max_tasks is not None:
            out["max_tasks"] = max_tasks
        if fixed:
            out["costs"] = {"fixed": fixed}
        vehicles.append(out)

    jobs = []
    for j in p["jobs"]:
        out = stop(j, j["orderId"])
        out["delivery" if j["kind"] == "delivery" else "pickup"] = amount(j["amount"])
        out["skills"] = [skill[s] for s in j["skills"]]
        jobs.append(out)

    shipments = [
        {
            "pickup": stop(s["pickup"], s["orderId"]),
            "delivery": stop(s["delivery"], s["orderId"]),
            "amount": amount(s["amount"]),
            "skills": [skill[k] for k in s["skills"]],
        }
        for s in p["shipments"]
    ]
    m = p["matrix"]
    return {
        "vehicles": vehicles,
        "jobs": jobs,
        "shipments": shipments,
        "matrices": {"car": {"durations": m["durations"], "distances": m["distances"]}},
    }


def solve(problem, time_limit):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "problem.json")
        with open(path, "w") as f:
            json.dump(problem, f)
        instance = vroom.Input.from_json(path)
    return instance.solve(
        exploration_level=EXPLORATION_LEVEL,
        nb_threads=THREADS,
        timeout=timedelta(seconds=time_limit),
    ).to_dict()


def plan_route(r, jobs, distances):
    steps = []
    route_distance = 0
    last = None
    for s in r["steps"]:
        loc = s.get("location_index")
        if loc is not None:
            if last is not None:
                route_distance += distances[last][loc]
            last = loc
        kind = s["type"]
        step = {
            "type": kind,
            "location": loc,
            "arrival": s["arrival"],
            "departure": s["arrival"] + s.get("waiting_time", 0) + s.get("setup", 0) + s.get("service", 0),
        }
        if kind == "job":
            step["type"] = jobs[s["id"]]["kind"]
            step["orderId"] = s["id"]
        elif kind in ("pickup", "delivery"):
            step["orderId"] = s["id"]
        elif kind == "break":
            step["breakId"] = s["id"]
        steps.append(step)
    return {
        "driverId": r["vehicle"],
        "steps": steps,
        "travelSeconds": r["duration"],
        "serviceSeconds": r["service"],
        "waitingSeconds": r["waiting_time"],
        "distanceMeters": route_distance,
    }


def fits_alone(v, stops, durations):
    """Whether the vehicle could serve these stops, in this order, with nothing else on its route."""
    t, travel, here = v["shift"][0], 0, v["start"]
    for s in stops:
        leg = durations[here][s["location"]] if here is not None else 0
        t, travel, here = t + leg, travel + leg, s["location"]
        ws = sorted(s["windows"]) or [(t, t)]
        begin = next((max(t, f) for f, to in ws if max(t, f) <= to), None)
        if begin is None:
            return False
        t = begin + s["serviceSeconds"]
    leg = durations[here][v["end"]] if v["end"] is not None else 0
    limit = v["maxTravelSeconds"]
    return t + leg <= v["shift"][1] and (limit is None or travel + leg <= limit)


def reason(task, stops, vehicles, durations):
    skilled = [v for v in vehicles if set(task["skills"]) <= set(v["skills"])]
    if not skilled:
        return "no driver has the required skills"
    for d in DIMENSIONS:
        roomy = [v for v in skilled if v["capacity"][d] is None or v["capacity"][d] >= task["amount"][d]]
        if not roomy:
            return DIMENSION_REASONS[d]
        skilled = roomy
    if not any(fits_alone(v, stops, durations) for v in skilled):
        return "outside every driver's shift"
    return "no feasible slot"


def main():
    p = json.load(sys.stdin)
    started = time.monotonic()
    solution = solve(vroom_problem(p), p["timeLimitSeconds"])
    seconds = time.monotonic() - started
    jobs = {j["orderId"]: j for j in p["jobs"]}
    shipments = {s["orderId"]: s for s in p["shipments"]}
    durations = p["matrix"]["durations"]
    unassigned = {}
    for u in solution.get("unassigned", []):
        order = u["id"]
        if order in unassigned:
            continue
        if u["type"] == "job":
            task, stops = jobs[order], [jobs[order]]
        else:
            task = shipments[order]
            stops = [task["pickup"], task["delivery"]]
        unassigned[order] = reason(task, stops, p["vehicles"], durations)
    plan = {
        "engine": f"vroom {version('pyvroom')}",
        "seconds": round(seconds, 3),
        "cost": solution["summary"]["cost"],
        "routes": [plan_route(r, jobs, p["matrix"]["distances"]) for r in solution.get("routes", [])],
        "unassigned": [{"orderId": o, "reason": r} for o, r in sorted(unassigned.items())],
    }
    json.dump(plan, sys.stdout)


if __name__ == "__main__":
    main()
