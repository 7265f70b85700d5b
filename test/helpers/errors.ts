// Small helpers every test may use.

/** The error `fn` throws; fails the test when it throws nothing. */
export function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}
