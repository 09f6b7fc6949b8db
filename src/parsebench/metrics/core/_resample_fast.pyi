import numpy as np
import numpy.typing as npt

def resample_sums(drawn: npt.NDArray[np.int64], stats: npt.NDArray[np.float64]
                  ) -> npt.NDArray[np.float64]: ...
