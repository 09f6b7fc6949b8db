"""Bigert et al. (2005)'s equations: the bounds and estimates of the degradation
from the share of rows the noise changed (eqs. 6-22) and what Appendix A says of
them. Pure functions of numbers, so they work on exact fractions (the tests check the
paper's algebra) as well as on the scorer's floats."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

Number = float | Fraction


def estimates(acr_0n: Number, acr: Number) -> dict[str, Number]:
    """Equations 6, 9, 16, 18-20: bounds and estimates from acr_0n and clean accuracy acr,
    as the paper writes them (the scorer reports them :func:`capped`)."""
    upper = (1 - acr_0n) / acr
    lower = upper / 2
    estimate = 3 * upper / 4
    return {"degr_lower": lower, "degr_upper": upper, "degr_estimate": estimate,
            "acc_lower": acr * (1 - upper), "acc_upper": acr * (1 - lower),
            "acc_estimate": acr * (1 - estimate)}


def capped(e: dict[str, Number]) -> dict[str, Number]:
    """A degradation is at most 1 (the noisy parse right nowhere) and an accuracy at
    least 0: where more rows change than the clean parse gets right (1 - acr_0n > acr),
    eq. 6 gives an upper bound above 1 and eq. 18 a negative accuracy."""
    return {k: min(v, 1) if k.startswith("degr") else max(v, 0) for k, v in e.items()}


def deviations(x: Mapping[str, Number], acr: Number) -> dict[str, Number]:
    """Equations 8, 11, 15, 22 from the case frequencies x (keys aaa ... abc)."""
    gamma = (7 * x["aba"] + 3 * x["abc"] - x["aab"]) / (4 * acr)
    return {"epsilon": (2 * x["aba"] + x["abc"]) / acr,
            "delta": (x["aab"] - 3 * x["aba"] - x["abc"]) / (2 * acr),
            "gamma": gamma, "lambda": -acr * gamma}


def warnings_for(acr: float) -> list[str]:
    """Appendix A: when the lower bound holds and which way the estimate leans."""
    out = []
    if acr < 2 / 3:
        out.append(f"accuracy {acr:.1%} is below 2/3: the lower bound of the degradation is "
                   "not guaranteed (Appendix A)")
    if acr >= 5 / 6:
        out.append(f"accuracy {acr:.1%} >= 5/6: the estimate tends to understate the real "
                   "degradation (gamma <= 0)")
    elif acr <= 3 / 4:
        out.append(f"accuracy {acr:.1%} <= 3/4: the estimate tends to overstate the real "
                   "degradation (gamma >= 0)")
    return out
