"""Pivot: rigid bodies in contact, stepped by Stewart-Trinkle time steps whose LCPs are
solved exactly by Lloyd's fast Lemke method (type stub of the compiled module)."""

from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

ArrayLike = Union[npt.ArrayLike, Sequence[float]]
BodyRef = Union[str, int]

class InputError(ValueError):
    """Bad input (a scene, recording or problem file); str(e) is 'file:line:column: message'."""
    file: str
    line: int  # 1-based, 0 when not known
    column: int  # 1-based, 0 when not known
    message: str

class SolverFailure(RuntimeError):
    """A step whose contact LCP no method solved (World(on_failure='stop'))."""
    problem_file: str  # the problem written for `pivot lcp solve`

class Scene:
    """A scene: materials, bodies with their initial states, settings, scripted wrenches."""
    @property
    def description(self) -> str: ...
    @property
    def body_names(self) -> List[str]: ...
    @property
    def fixed(self) -> npt.NDArray[np.bool_]: ...  # (B,)
    @property
    def masses(self) -> npt.NDArray[np.float64]: ...  # (B,) [kg], 0 for fixed bodies
    @property
    def material_names(self) -> List[str]: ...
    @property
    def time_step(self) -> float: ...  # [s]
    @property
    def warnings(self) -> List[str]: ...  # problems fixed while loading
    def to_json(self) -> str: ...
    def write(self, path: str) -> None: ...

def load_scene(path: str) -> Scene:
    """Reads a scene file; raises InputError 'file:line:column: message'."""

def scene_from_json(text_or_dict: Union[str, Dict[str, Any]], name: str = "<json>") -> Scene:
    """A scene from JSON text or a dict; name labels errors."""

class StepStats:
    """What one step did."""
    contacts: int
    groups: int
    islands: int
    pivots: int
    warm_starts: int
    warm_paths: int
    fallbacks: int
    rescues: dict[str, int]
    recoveries: int
    deferred_penetrations: int  # penetrations left to the push where the velocity LCP had none
    substeps: int  # of h / substeps: above 1 for a fast spin, a retake, or one carried
    retaken: bool  # taken whole, it left a contact deeper than its linearisation: retaken
    carried: bool  # taken in the substeps carried from a retaken step (one fewer a step)
    substep_cause: str  # why in substeps: "none", "fast_spin", "retaken" or "carried"
    cancelled: bool  # abandoned past World(step_time_limit=...): the state is the step's start
    failures: int
    max_penetration: float  # [m]
    collision_us: float
    assembly_us: float
    solve_us: float
    integrate_us: float

class Contacts:
    """The last step's contacts (found at its start) as arrays of C rows: World.contacts'
    convex contacts or World.group_sides' nonconvex group sides."""
    points: npt.NDArray[np.float64]  # (C,3) on body_b's surface [m]
    normals: npt.NDArray[np.float64]  # (C,3) unit, from body_b toward body_a
    gaps: npt.NDArray[np.float64]  # (C,) signed [m]
    body_a: npt.NDArray[np.int32]  # (C,) never a fixed body
    body_b: npt.NDArray[np.int32]  # (C,)
    normal_impulses: npt.NDArray[np.float64]  # (C,) theta [N s]
    friction_impulses: npt.NDArray[np.float64]  # (C,3) world frame [N s]
    group: npt.NDArray[np.int32]  # (C,) a side's group; -1 for a convex contact
    side: npt.NDArray[np.int32]  # (C,) a side's index in its group; -1 for a convex contact
    groups: int  # nonconvex groups of the step
    def __len__(self) -> int: ...

class State:
    """A copy of everything that changes in a world."""
    time: float  # [s]
    step: int
    carried_substeps: int  # 1 to 64: the next step starts in at least these substeps
    positions: npt.NDArray[np.float64]  # (B,3) [m]
    orientations: npt.NDArray[np.float64]  # (B,4) w, x, y, z
    linear_velocities: npt.NDArray[np.float64]  # (B,3) [m/s]
    angular_velocities: npt.NDArray[np.float64]  # (B,3) [rad/s]
    def copy(self) -> State: ...

class World:
    """A scene's bodies moved by Stewart-Trinkle time steps (one thread per World)."""
    def __init__(self, scene: Scene, *, on_failure: str = "stop", failure_dir: str = "",
                 warm_start: bool = True, max_pivots: int = 0,
                 step_time_limit: float = 0.0, threads: int = 1) -> None: ...
    def step(self, n: int = 1, recorder: Optional[RecordingWriter] = None) -> StepStats:
        """Takes n steps with the GIL released; returns the last one's StepStats."""
    def reset(self) -> None: ...
    @property
    def time(self) -> float: ...  # [s]
    @property
    def step_count(self) -> int: ...
    def energy(self) -> float: ...  # [J]
    @property
    def scene(self) -> Scene: ...
    @property
    def body_names(self) -> List[str]: ...
    @property
    def stats(self) -> StepStats: ...
    @property
    def positions(self) -> npt.NDArray[np.float64]: ...  # (B,3)
    @property
    def orientations(self) -> npt.NDArray[np.float64]: ...  # (B,4) w, x, y, z
    @property
    def linear_velocities(self) -> npt.NDArray[np.float64]: ...  # (B,3)
    @property
    def angular_velocities(self) -> npt.NDArray[np.float64]: ...  # (B,3)
    def get_state(self) -> State: ...
    def set_state(self, state: State) -> None: ...
    h: float  # time step [s]
    d: int  # friction directions per contact
    method: str  # 'standard' | 'structural' | 'reduced'
    nonconvex: str  # 'max' | 'sum' | 'off'
    gravity: npt.NDArray[np.float64]  # (3,) [m/s^2]
    mu: Optional[float]  # global friction override; None: the materials'
    @property
    def materials(self) -> Dict[str, float]: ...
    def set_material_friction(self, material: Union[str, int], mu: float) -> None: ...
    def set_applied_wrench(self, body: BodyRef, force: ArrayLike = (0, 0, 0),
                           torque: ArrayLike = (0, 0, 0)) -> None: ...
    def contacts(self) -> Contacts: ...
    def group_sides(self) -> Contacts: ...

class RecordingWriter:
    """Writes path (CSV), path.json and optionally path.contacts.csv on finish()."""
    def __init__(self, path: str, world: World, scene_path: str = "", record_every: int = 1,
                 contact_log: bool = False) -> None: ...
    def record(self, world: World) -> None: ...
    def finish(self) -> None: ...
    def abandon(self) -> None: ...
    @property
    def frames(self) -> int: ...
    def __enter__(self) -> RecordingWriter: ...
    def __exit__(self, *exc: Any) -> bool: ...

class Recording:
    """A recording read back: F frames of B bodies."""
    @property
    def body_names(self) -> List[str]: ...
    @property
    def info(self) -> Dict[str, Any]: ...
    @property
    def steps(self) -> npt.NDArray[np.int64]: ...  # (F,)
    @property
    def times(self) -> npt.NDArray[np.float64]: ...  # (F,)
    @property
    def positions(self) -> npt.NDArray[np.float64]: ...  # (F,B,3)
    @property
    def orientations(self) -> npt.NDArray[np.float64]: ...  # (F,B,4)
    @property
    def linear_velocities(self) -> npt.NDArray[np.float64]: ...  # (F,B,3)
    @property
    def angular_velocities(self) -> npt.NDArray[np.float64]: ...  # (F,B,3)
    def state(self, frame: int) -> State: ...
    def to_dataframe(self) -> Any: ...  # pandas.DataFrame
    def __len__(self) -> int: ...

def read_recording(path: str) -> Recording: ...

class Sweep:
    """A sweep file read and checked; sample i's row is a pure function of (file, i)."""
    def __init__(self, path: str) -> None: ...
    @property
    def file(self) -> str: ...
    @property
    def columns(self) -> List[str]: ...
    def __len__(self) -> int: ...
    def validate(self) -> None: ...
    def run(self, index: int, failure_dir: str = "") -> List[str]: ...
    def read_table(self, path: str) -> List[List[str]]: ...
    def write_table(self, path: str, rows: List[List[str]], git_hash: str = "") -> None: ...

class LcpResult:
    """How a solve ended; z is a solution only when solved."""
    @property
    def status(self) -> str: ...  # 'solved' | 'secondary_ray' | 'pivot_limit' | 'numerical_failure'
    @property
    def solved(self) -> bool: ...
    z: npt.NDArray[np.float64]
    w: npt.NDArray[np.float64]
    pivots: int
    solve_time_us: float

def solve_lcp(M: npt.ArrayLike, q: npt.ArrayLike, method: str = "standard",
              max_pivots: int = 0) -> LcpResult: ...
def solve_contact_problem(path: str, method: str = "", max_pivots: int = 0) -> LcpResult: ...
