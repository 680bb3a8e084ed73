import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['tests/setup/scratch-tmpdir.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          // Real containers on 2 cores: one file at a time keeps timings sane.
          fileParallelism: false,
        },
      },
    ],
  },
});
