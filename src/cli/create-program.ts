import { Command } from 'commander';
import { createBenchCommand } from './bench-command.js';
import { createBuildCommand } from './build-command.js';
import { createEpisodeCommand } from './episode-command.js';
import { createFilterCommand } from './filter-command.js';
import { createImagesCommand } from './images-command.js';
import { createRolloutCommand } from './rollout-command.js';
import { createServeCommand } from './serve-command.js';

/** The `codemidas` command line. */
export function createProgram(): Command {
  const program = new Command('codemidas')
    .description('RL environments for coding agents, served over gRPC')
    .option('--verbose', 'debug logging, and stack traces on failure', false)
    .showHelpAfterError('(codemidas --help lists the commands)');
  program.addCommand(createServeCommand());
  program.addCommand(createEpisodeCommand());
  program.addCommand(createImagesCommand());
  program.addCommand(createBenchCommand());
  program.addCommand(createBuildCommand());
  program.addCommand(createRolloutCommand());
  program.addCommand(createFilterCommand());
  return program;
}
