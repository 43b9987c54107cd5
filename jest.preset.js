/**
 * The shared Jest preset: TypeScript through ts-jest (isolated modules, so each
 * file compiles alone and fast), tests under test/ beside src/.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: {
          isolatedModules: true,
          module: 'commonjs',
          target: 'ES2022',
          esModuleInterop: true,
          resolveJsonModule: true,
        },
      },
    ],
  },
  testTimeout: 30000,
};
