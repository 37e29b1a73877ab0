"""The solvers on their own: solve_lcp against a closed form, solve_contact_problem on the
shipped problem files, each answer checked against the LCP conditions."""

import numpy as np
import pivot
import pytest


def test_solve_lcp_gives_the_known_solution():
    # scenes/problems/positive_definite_4.lcp: a P-matrix, one solution, exact values
    # from enumerating the 16 complementary bases.
    M = np.array([[4, -1, 0, 1], [1, 3, -1, 0], [0, 1, 5, -2], [-1, 0, 2, 4]], dtype=float)
    q = np.array([-3, 1, -4, -2], dtype=float)
    result = pivot.solve_lcp(M, q)
    assert result.status == "solved" and result.solved
    np.testing.assert_allclose(result.z, np.array([70, 0, 90, 23]) / 101, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.w, np.array([0, 81, 0, 0]) / 101, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.w, M @ result.z + q, atol=1e-12)
    assert result.pivots >= 3  # three z's are basic at the end


def test_solve_lcp_reports_a_ray_instead_of_a_wrong_answer():
    # w = -z - 1 >= 0 has no solution with z >= 0: Lemke ends on a secondary ray.
    result = pivot.solve_lcp(-np.eye(1), np.array([-1.0]))
    assert result.status == "secondary_ray" and not result.solved


def test_solve_lcp_refuses_fast_methods_and_bad_shapes():
    with pytest.raises(ValueError, match="needs a contact problem"):
        pivot.solve_lcp(np.eye(2), np.ones(2), method="reduced")
    with pytest.raises(ValueError, match="M must be n x n and q of size n"):
        pivot.solve_lcp(np.eye(2), np.ones(3))


@pytest.mark.parametrize("method", ["standard", "structural", "reduced"])
def test_contact_problem_file_by_every_method(scenes, method):
    result = pivot.solve_contact_problem(str(scenes / "problems" / "box_on_plane.contact"),
                                         method=method)
    assert result.solved
    z, w = result.z, result.w
    # LCP conditions to the acceptance rule's 1e-9 (docs/problem-files.md).
    assert z.min() >= -1e-9 and w.min() >= -1e-9
    assert np.abs(z * w).max() <= 1e-9 * max(1.0, np.abs(z).max())


def test_every_method_gives_the_same_impulses(scenes):
    path = str(scenes / "problems" / "box_on_plane.contact")
    z = [pivot.solve_contact_problem(path, method=m).z for m in ("standard", "reduced")]
    np.testing.assert_allclose(z[0], z[1], atol=1e-12)
