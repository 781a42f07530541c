"""Progress for the long commands (arena, simulate, analyze, learn), in a terminal or a log.

In a terminal, rich's bar. Where the output is a file or a pipe (a run of hours started with
`nohup ... > run.log`), a bar cannot be drawn, and rich draws nothing at all; there a plain line
per task every `every` seconds says how far the run is and about how long it has left:

    arena: games 21 of 200 (10%), 0:22:10 gone, about 3:08:40 left
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from rich.console import Console
from rich.progress import Progress, ProgressColumn, Task, TaskID

LOG_EVERY = 60.0  # seconds between two plain lines where no bar can be drawn


def _clock(seconds: float) -> str:
    return str(timedelta(seconds=round(seconds)))


def progress_line(label: str, task: Task, start: float = 0.0) -> str:
    """One task's state in words: done of total, time gone, and the time left at the mean
    pace so far (rich's own estimate needs steps every few seconds; a game may take minutes).
    `start`: the steps done before this process began (a resumed run), not part of its pace."""
    done, total, gone = int(task.completed), task.total, task.elapsed or 0.0
    head = f"{label}: " if label else ""
    if total is None or total <= 0:
        return f"{head}{task.description} {done}, {_clock(gone)} gone"
    share = f"{100 * done / total:.0f}%"
    line = f"{head}{task.description} {done} of {int(total)} ({share}), {_clock(gone)} gone"
    if start < done < total:
        line += f", about {_clock(gone / (done - start) * (total - done))} left"
    return line


class LoggedProgress(Progress):
    """rich's Progress, which where the console is no terminal writes a plain line per task
    every `every` seconds (LOG_EVERY unless told; on a step or an update) instead of drawing
    nothing."""

    def __init__(
        self,
        *columns: str | ProgressColumn,
        console: Console,
        label: str = "",
        every: float | None = None,
        **options: Any,
    ) -> None:
        self.plain = not console.is_terminal
        super().__init__(*columns, console=console, disable=self.plain, **options)
        self.label, self.every = label, LOG_EVERY if every is None else every
        self._last = time.monotonic()
        self._start: dict[TaskID, int] = {}  # each task's steps when it was added

    def add_task(
        self,
        description: str,
        start: bool = True,
        total: float | None = 100.0,
        completed: int = 0,
        visible: bool = True,
        **fields: Any,
    ) -> TaskID:
        task_id = super().add_task(description, start, total, completed, visible, **fields)
        self._start[task_id] = completed
        return task_id

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._log()

    def update(self, task_id: TaskID, **changes: Any) -> None:
        super().update(task_id, **changes)
        self._log()

    def _log(self) -> None:
        now = time.monotonic()
        if not self.plain or now - self._last < self.every:
            return
        self._last = now
        for task in self.tasks:
            if task.visible and not task.finished:
                line = progress_line(self.label, task, self._start.get(task.id, 0.0))
                self.console.print(line, highlight=False, soft_wrap=True)
