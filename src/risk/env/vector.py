"""A batched multi-process vector environment: N environments stepped by W worker processes.

    >>> import gymnasium
    >>> import risk.env
    >>> from risk.env import RiskVectorEnv
    >>> envs = RiskVectorEnv([lambda: gymnasium.make("risk/Crossroads-v0")] * 4, workers=2)
    >>> observations, infos = envs.reset(seed=1)
    >>> observations.shape, infos["action_mask"].shape
    ((4, 624), (4, 958))
    >>> envs.close()

Gymnasium's ``AsyncVectorEnv`` runs one process per environment and pickles each environment's
step through a pipe (infos with the action masks included): a RISK step costs less than that round
trip, so it is slower than stepping the environments one after the other. :class:`RiskVectorEnv`
gives each worker a share of the environments and steps its share as a batch: one short pipe message
per worker and step; actions, observations, rewards, ends and the action masks travel through shared
memory, and only the rare info keys (``"illegal_action"``) through the pipe. What it returns is what
``SyncVectorEnv`` returns for the same environments, seeds and actions (tests/test_env_vector.py).
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import multiprocessing
import os
import pickle
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium.error import ClosedEnvironmentError
from gymnasium.spaces import Discrete, Space
from gymnasium.vector.utils import (
    CloudpickleWrapper,
    batch_space,
    clear_mpi_env_vars,
    concatenate,
    create_shared_memory,
    iterate,
    read_from_shared_memory,
)
from gymnasium.vector.vector_env import AutoresetMode, VectorEnv
from numpy.typing import NDArray

MASK_KEY = "action_mask"
# How long close() waits for a worker to finish its environments before it terminates it.
CLOSE_TIMEOUT = 10.0

# One command's answer from a worker: ("ok", result) or ("error", WorkerFailure).
Reply = tuple[str, Any]
EnvFn = Callable[[], gymnasium.Env[Any, Any]]


class VectorWorkerError(RuntimeError):
    """An environment raised in a worker process (the message names the environment and the error)."""


@dataclass(frozen=True)
class WorkerFailure:
    """An exception raised in a worker, as it crosses the pipe (the exception itself if it pickles)."""

    env_index: int | None  # None: the worker failed outside any one environment
    kind: str
    message: str
    trace: str
    exception: bytes | None


@dataclass(frozen=True)
class SharedBuffers:
    """The shared memory of one vector: observations (Gymnasium's layout), the batch arrays and masks."""

    observations: Any
    actions: Any
    rewards: Any
    terminations: Any
    truncations: Any
    masks: Any
    mask_present: Any


@dataclass
class Views:
    """NumPy views of :class:`SharedBuffers` (made in each process that reads or writes them)."""

    observations: Any
    actions: Any
    rewards: NDArray[np.float64]
    terminations: NDArray[np.bool_]
    truncations: NDArray[np.bool_]
    masks: NDArray[np.int8]
    mask_present: NDArray[np.bool_]


def _views(
    buffers: SharedBuffers, observation_space: Space[Any], action_space: Space[Any], envs: int, mask_size: int
) -> Views:
    return Views(
        observations=read_from_shared_memory(observation_space, buffers.observations, n=envs),
        actions=read_from_shared_memory(action_space, buffers.actions, n=envs),
        rewards=np.frombuffer(buffers.rewards, dtype=np.float64),
        terminations=np.frombuffer(buffers.terminations, dtype=np.bool_),
        truncations=np.frombuffer(buffers.truncations, dtype=np.bool_),
        masks=np.frombuffer(buffers.masks, dtype=np.int8).reshape(envs, mask_size),
        mask_present=np.frombuffer(buffers.mask_present, dtype=np.bool_),
    )


def _rows(batch: Any, start: int, stop: int) -> Any:
    """Rows ``start:stop`` of a batch in Gymnasium's layout (arrays, dicts and tuples of them), as views."""
    if isinstance(batch, Mapping):
        return {key: _rows(value, start, stop) for key, value in batch.items()}
    if isinstance(batch, tuple):
        return tuple(_rows(value, start, stop) for value in batch)
    return batch[start:stop]


def _copy_rows(destination: Any, source: Any) -> None:
    """Write a batch (the caller's actions) into the shared views of the same layout."""
    if isinstance(destination, Mapping):
        for key, value in destination.items():
            _copy_rows(value, source[key])
    elif isinstance(destination, tuple):
        for value, part in zip(destination, source, strict=True):
            _copy_rows(value, part)
    else:
        np.copyto(destination, np.asarray(source), casting="unsafe")


def split(envs: int, workers: int) -> list[range]:
    """Each worker's environments: contiguous shares, as even as can be (the first ones get one more)."""
    share, extra = divmod(envs, workers)
    bounds = [0]
    for worker in range(workers):
        bounds.append(bounds[-1] + share + (1 if worker < extra else 0))
    return [range(start, stop) for start, stop in itertools.pairwise(bounds)]


class RiskVectorEnv(VectorEnv[Any, Any, NDArray[Any]]):
    """N environments over W worker processes, each worker stepping its share in a batch.

    ``env_fns``: functions that make the environments (as for ``SyncVectorEnv``); ``workers``: the
    number of processes (default ``min(N, os.cpu_count())``); ``context``: the ``multiprocessing``
    start method (``None``: the platform's default); ``daemon``: the workers end with the main
    process (as in AsyncVectorEnv; ``False`` lets an environment start processes of its own).
    ``copy`` and ``autoreset_mode`` as in Gymnasium's vectors (the default, ``NEXT_STEP``: an
    environment that ended is reset by the next step, which ignores its action). Observations must
    fit Gymnasium's shared memory (``Box``, ``Discrete``, ``Dict``, ``Tuple``...); with a
    ``Discrete`` action space, ``info["action_mask"]`` is kept in shared memory (as ``int8``, what
    :class:`~risk.env.gym.RiskGymEnv` gives) and :meth:`action_masks` returns the masks now.

    Returns what ``SyncVectorEnv`` returns for the same environments, seeds and actions. An
    environment that raises in ``reset`` or ``step`` closes the vector (its batch is half done) and
    raises :class:`VectorWorkerError` naming the environment and the error; one that raises in
    :meth:`call` or :meth:`set_attr` leaves it running.
    """

    def __init__(
        self,
        env_fns: Sequence[EnvFn],
        workers: int | None = None,
        context: str | None = None,
        *,
        copy: bool = True,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        daemon: bool = True,
    ) -> None:
        self.closed = True  # until the workers run: close() and __del__ have nothing to do
        env_fns = list(env_fns)
        if not env_fns:
            raise ValueError("RiskVectorEnv needs at least one environment function (env_fns is empty)")
        if not all(callable(env_fn) for env_fn in env_fns):
            raise TypeError("env_fns must be functions that make the environments (callables)")
        if workers is None:
            workers = min(len(env_fns), os.cpu_count() or 1)
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number of processes, 1 or more, not {workers!r}")
        if workers > len(env_fns):
            raise ValueError(
                f"workers ({workers}) must not exceed the number of environments ({len(env_fns)})"
            )
        self.env_fns = env_fns
        self.num_envs = len(env_fns)
        self.copy = copy
        self.autoreset_mode = (
            autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else AutoresetMode(autoreset_mode)
        )
        # The spaces and metadata, from one environment made here (as AsyncVectorEnv does): the
        # shared memory must exist before the workers start, to be inherited by them.
        dummy = env_fns[0]()
        self.metadata = dict(dummy.metadata)
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = dummy.render_mode
        self.single_observation_space = dummy.observation_space
        self.single_action_space = dummy.action_space
        dummy.close()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.mask_size = (
            int(self.single_action_space.n) if isinstance(self.single_action_space, Discrete) else 0
        )

        ctx = multiprocessing.get_context(context)
        as_module: Any = ctx  # Gymnasium types ctx as the multiprocessing module; a context serves the same
        self._buffers = SharedBuffers(
            observations=create_shared_memory(self.single_observation_space, n=self.num_envs, ctx=as_module),
            actions=create_shared_memory(self.single_action_space, n=self.num_envs, ctx=as_module),
            rewards=ctx.RawArray(ctypes.c_double, self.num_envs),
            terminations=ctx.RawArray(ctypes.c_bool, self.num_envs),
            truncations=ctx.RawArray(ctypes.c_bool, self.num_envs),
            masks=ctx.RawArray(ctypes.c_int8, self.num_envs * self.mask_size),
            mask_present=ctx.RawArray(ctypes.c_bool, self.num_envs),
        )
        self._views = _views(
            self._buffers,
            self.single_observation_space,
            self.single_action_space,
            self.num_envs,
            self.mask_size,
        )
        self.shares = split(self.num_envs, workers)
        self.pipes: list[Connection] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        self.closed = False
        try:
            with clear_mpi_env_vars():
                for worker, share in enumerate(self.shares):
                    self._start(ctx, worker, share, daemon)
        except BaseException:  # e.g. an env_fn that does not pickle for spawn: end the workers started
            self.close()
            raise
        self._gather("start")  # each worker made its environments and checked their spaces

    def _start(self, ctx: BaseContext, worker: int, share: range, daemon: bool) -> None:
        parent, child = ctx.Pipe()
        process = ctx.Process(  # type: ignore[attr-defined]
            target=_worker,
            name=f"Worker<RiskVectorEnv>-{worker}",
            args=(
                share,
                self.num_envs,
                [CloudpickleWrapper(self.env_fns[index]) for index in share],
                child,
                parent,
                self._buffers,
                self.single_observation_space,
                self.single_action_space,
                self.mask_size,
                self.autoreset_mode,
            ),
            daemon=daemon,
        )
        process.start()
        child.close()
        self.pipes.append(parent)
        self.processes.append(process)

    # --- the Gymnasium API ---

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the environments (``seed``: one int for ``seed, seed+1, ...``, or one per environment);
        ``options["reset_mask"]`` resets only the environments it marks, as in SyncVectorEnv."""
        self._assert_is_running()
        seeds = self._seeds(seed)
        reset_mask = None
        if options is not None and "reset_mask" in options:
            options = dict(options)
            reset_mask = _check_reset_mask(options.pop("reset_mask"), self.num_envs)
        for pipe, share in zip(self.pipes, self.shares, strict=True):
            chosen = None if reset_mask is None else [bool(reset_mask[index]) for index in share]
            pipe.send(("reset", ([seeds[index] for index in share], options, chosen)))
        rare = self._gather("reset")
        return self._observations(), self._infos(rare)

    def step(
        self, actions: Any
    ) -> tuple[Any, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Step every environment with its action (an environment that ended is reset instead)."""
        self._assert_is_running()
        _copy_rows(self._views.actions, actions)
        for pipe in self.pipes:
            pipe.send(("step", None))
        rare = self._gather("step")
        return (
            self._observations(),
            self._views.rewards.copy(),
            self._views.terminations.copy(),
            self._views.truncations.copy(),
            self._infos(rare),
        )

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of each environment now, ``(N, A)`` booleans (sb3-contrib's name)."""
        self._assert_is_running()
        if not self.mask_size:
            raise ValueError(f"action masks need a Discrete action space, not {self.single_action_space}")
        return self._views.masks.astype(np.bool_)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute) of every environment, in each worker: one result each."""
        self._assert_is_running()
        if name in ("reset", "step", "close"):
            raise ValueError(f"call `{name}` through the vector's own {name}(), not call()")
        for pipe in self.pipes:
            pipe.send(("call", (name, args, kwargs)))
        return tuple(result for results in self._gather("call") for result in results)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """An attribute of every environment."""
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Set an attribute of every environment: one value each (a list or tuple), or the same for all."""
        self._assert_is_running()
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(
                "Values must be a list or tuple with length equal to the number of environments. "
                f"Got `{len(values)}` values for {self.num_envs} environments."
            )
        for pipe, share in zip(self.pipes, self.shares, strict=True):
            pipe.send(("set_attr", (name, [values[index] for index in share])))
        self._gather("set_attr")

    def render(self) -> tuple[Any, ...]:
        """Each environment's frame."""
        return self.call("render")

    @property
    def np_random_seed(self) -> tuple[int, ...]:  # type: ignore[override]
        """The environments' seeds (the base class has one generator; the vectors have one each)."""
        return self.get_attr("np_random_seed")

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The environments' random generators."""
        return self.get_attr("np_random")

    def close_extras(self, **kwargs: Any) -> None:
        """Close the environments and end the workers (terminated if they do not end in time)."""
        for pipe in self.pipes:
            with contextlib.suppress(BrokenPipeError, OSError):  # a worker gone already has nothing to close
                pipe.send(("close", None))
        for pipe, process in zip(self.pipes, self.processes, strict=True):
            with contextlib.suppress(EOFError, OSError):  # a worker gone already says nothing
                if pipe.poll(CLOSE_TIMEOUT):
                    pipe.recv()
            pipe.close()
            process.join(CLOSE_TIMEOUT)
            if process.is_alive():
                process.terminate()
                process.join()

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            self.close()

    def __repr__(self) -> str:
        return f"RiskVectorEnv(num_envs={self.num_envs}, workers={len(self.shares)})"

    # --- the main process's side ---

    def _assert_is_running(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError("Trying to operate on `RiskVectorEnv`, after a call to `close()`.")

    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int):
            return [seed + index for index in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(
                f"If seeds are passed as a list the length must match num_envs={self.num_envs} "
                f"but got length={len(seeds)}."
            )
        return seeds

    def _gather(self, command: str) -> list[Any]:
        """Every worker's answer to ``command``, in order; a failure raises (after closing, for a
        failed reset or step)."""
        results: list[Any] = []
        failures: list[tuple[int, WorkerFailure]] = []
        for worker, pipe in enumerate(self.pipes):
            try:
                status, payload = pipe.recv()
            except (EOFError, OSError):
                process = self.processes[worker]
                process.join(1.0)
                failure = WorkerFailure(
                    None, "EOFError", f"the process ended (exit code {process.exitcode})", "", None
                )
                failures.append((worker, failure))
                continue
            if status == "ok":
                results.append(payload)
            else:
                failures.append((worker, payload))
        if failures:
            worker, failure = failures[0]
            if command in ("start", "reset", "step") or failure.kind == "EOFError":
                self.close()
                consequence = "; the vector is closed"
            else:
                consequence = ""
            raise self._error(command, worker, failure, consequence)
        return results

    def _error(
        self, command: str, worker: int, failure: WorkerFailure, consequence: str
    ) -> VectorWorkerError:
        share = self.shares[worker]
        where = (
            f"environment {failure.env_index} of {self.num_envs} (in worker {worker})"
            if failure.env_index is not None
            else f"worker {worker} (environments {share.start} to {share.stop - 1})"
        )
        error = VectorWorkerError(
            f"{where} raised {failure.kind}: {failure.message} (in {command}{consequence})"
            + (f"\nThe worker's traceback:\n{failure.trace}" if failure.trace else "")
        )
        if failure.exception is not None:
            error.__cause__ = pickle.loads(failure.exception)
        return error

    def _observations(self) -> Any:
        return deepcopy(self._views.observations) if self.copy else self._views.observations

    def _infos(self, rare_by_worker: list[dict[int, dict[str, Any]] | None]) -> dict[str, Any]:
        """Gymnasium's vector infos: the masks from shared memory, the rare keys as the workers sent them."""
        infos: dict[str, Any] = {}
        present = self._views.mask_present
        if self.mask_size and present.any():
            if present.all():
                masks = self._views.masks.copy()
            else:
                masks = np.zeros_like(self._views.masks)
                masks[present] = self._views.masks[present]
            infos[MASK_KEY], infos[f"_{MASK_KEY}"] = masks, present.copy()
        for rare in rare_by_worker:
            for index, info in (rare or {}).items():
                infos = self._add_info(infos, info, index)
        return infos


def _check_reset_mask(reset_mask: Any, envs: int) -> NDArray[np.bool_]:
    """SyncVectorEnv's checks of ``options["reset_mask"]``, with its messages."""
    if not isinstance(reset_mask, np.ndarray):
        raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(reset_mask)}")
    if reset_mask.shape != (envs,):
        raise ValueError(f"`options['reset_mask']` must have shape `({envs},)`, got {reset_mask.shape}")
    if reset_mask.dtype != np.bool_:
        raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {reset_mask.dtype}")
    if not np.any(reset_mask):
        raise ValueError(
            "`options['reset_mask']` must contain a boolean array with at least one True value, "
            f"got reset_mask={reset_mask}"
        )
    return reset_mask


# --- the worker process ---


class _Share:
    """One worker's environments and its views of the shared memory."""

    def __init__(
        self,
        indices: range,
        envs: list[gymnasium.Env[Any, Any]],
        views: Views,
        observation_space: Space[Any],
        action_space: Space[Any],
        mask_size: int,
        autoreset_mode: AutoresetMode,
    ) -> None:
        self.indices = indices
        self.envs = envs
        self.views = views
        self.observation_space = observation_space
        self.batch_actions = batch_space(action_space, len(indices))
        self.mask_size = mask_size
        self.autoreset_mode = autoreset_mode
        self.autoreset = [False] * len(envs)
        # Each environment's latest observation, as SyncVectorEnv keeps them (a partial reset rewrites all).
        self.observations: list[Any] = [None] * len(envs)
        self.current: int | None = None  # the environment at work, for error messages

    def each(self) -> Iterator[tuple[int, int, gymnasium.Env[Any, Any]]]:
        for position, (index, env) in enumerate(zip(self.indices, self.envs, strict=True)):
            self.current = index
            yield position, index, env
        self.current = None

    def reset(
        self, seeds: list[int | None], options: dict[str, Any] | None, chosen: list[bool] | None
    ) -> dict[int, dict[str, Any]] | None:
        rare: dict[int, dict[str, Any]] = {}
        views = self.views
        for position, index, env in self.each():
            views.mask_present[index] = False
            if chosen is not None and not chosen[position]:
                continue
            self.observations[position], info = env.reset(seed=seeds[position], options=options)
            views.terminations[index] = views.truncations[index] = False
            self.autoreset[position] = False
            self._info(index, info, rare)
        self._write_observations()
        return rare or None

    def step(self) -> dict[int, dict[str, Any]] | None:
        rare: dict[int, dict[str, Any]] = {}
        views = self.views
        actions = iterate(self.batch_actions, _rows(views.actions, self.indices.start, self.indices.stop))
        for (position, index, env), action in zip(self.each(), actions, strict=True):
            mode = self.autoreset_mode
            if mode == AutoresetMode.NEXT_STEP and self.autoreset[position]:
                observation, info = env.reset()
                reward: SupportsFloat = 0.0
                terminated, truncated = False, False
            elif mode == AutoresetMode.DISABLED and self.autoreset[position]:
                raise RuntimeError(
                    "autoreset_mode DISABLED: reset the environments that ended before stepping them"
                )
            else:
                observation, reward, terminated, truncated, info = env.step(action)
                if mode == AutoresetMode.SAME_STEP and (terminated or truncated):
                    rare[index] = {"final_obs": observation, "final_info": info}
                    observation, info = env.reset()
            self.observations[position] = observation
            views.rewards[index] = float(reward)
            views.terminations[index], views.truncations[index] = terminated, truncated
            self.autoreset[position] = bool(terminated or truncated)
            self._info(index, info, rare)
        self._write_observations()
        return rare or None

    def _info(self, index: int, info: dict[str, Any], rare: dict[int, dict[str, Any]]) -> None:
        """The mask into shared memory; the other keys (seldom any) to go through the pipe."""
        mask = info.get(MASK_KEY)
        if self.mask_size and isinstance(mask, np.ndarray) and mask.shape == (self.mask_size,):
            self.views.masks[index] = mask
            self.views.mask_present[index] = True
            if len(info) == 1:
                return
            info = {key: value for key, value in info.items() if key != MASK_KEY}
        else:
            self.views.mask_present[index] = False
        if info:
            rare[index] = {**rare.get(index, {}), **info}

    def _write_observations(self) -> None:
        concatenate(
            self.observation_space,
            self.observations,
            _rows(self.views.observations, self.indices.start, self.indices.stop),
        )

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        results = []
        for _, _, env in self.each():
            attribute = env.get_wrapper_attr(name)
            results.append(attribute(*args, **kwargs) if callable(attribute) else attribute)
        return results

    def set_attr(self, name: str, values: list[Any]) -> None:
        for position, _, env in self.each():
            env.set_wrapper_attr(name, values[position])


def _failure(env_index: int | None) -> WorkerFailure:
    kind, value, _ = sys.exc_info()
    assert kind is not None and value is not None
    try:
        dumped = pickle.dumps(value)
        pickle.loads(dumped)  # some exceptions pickle but do not load (required arguments)
        exception: bytes | None = dumped
    except Exception:  # an exception that does not cross processes: its text does
        exception = None
    return WorkerFailure(env_index, kind.__name__, str(value), traceback.format_exc(), exception)


def _worker(
    indices: range,
    num_envs: int,
    env_fns: list[CloudpickleWrapper],
    pipe: Connection,
    parent_pipe: Connection,
    buffers: SharedBuffers,
    observation_space: Space[Any],
    action_space: Space[Any],
    mask_size: int,
    autoreset_mode: AutoresetMode,
) -> None:
    parent_pipe.close()
    envs: list[gymnasium.Env[Any, Any]] = []
    try:
        for index, env_fn in zip(indices, env_fns, strict=True):
            try:
                env = env_fn()
                envs.append(env)
                if env.observation_space != observation_space or env.action_space != action_space:
                    raise RuntimeError(
                        f"its spaces differ from the first environment's: {env.observation_space}, "
                        f"{env.action_space} against {observation_space}, {action_space}"
                    )
            except Exception:
                pipe.send(("error", _failure(index)))
                _serve_until_close(pipe)
                return
        views = _views(buffers, observation_space, action_space, num_envs, mask_size)
        share = _Share(indices, envs, views, observation_space, action_space, mask_size, autoreset_mode)
        pipe.send(("ok", None))
        while True:
            command, data = pipe.recv()
            if command == "close":
                pipe.send(("ok", None))
                return
            try:
                if command == "step":
                    result: Any = share.step()
                elif command == "reset":
                    result = share.reset(*data)
                elif command == "call":
                    result = share.call(*data)
                elif command == "set_attr":
                    share.set_attr(*data)
                    result = None
                else:
                    raise RuntimeError(f"unknown command {command!r}")
                pipe.send(("ok", result))
            except Exception:
                pipe.send(("error", _failure(share.current)))
    except (KeyboardInterrupt, EOFError, BrokenPipeError):
        pass  # the main process is gone or interrupted: end quietly
    finally:
        for env in envs:
            env.close()


def _serve_until_close(pipe: Connection) -> None:
    """After a failed start: wait for the main process's close (it closes the vector)."""
    message = pipe.recv()
    while message[0] != "close":  # anything else is dropped: the vector is being closed
        message = pipe.recv()
    pipe.send(("ok", None))
