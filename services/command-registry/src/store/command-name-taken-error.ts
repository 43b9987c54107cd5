import { DiscordError } from '@acs/discord-errors';

/** 400 / 40041: a rename would give the command the name of another of the same type. */
export class CommandNameTakenError extends DiscordError {
  constructor() {
    super(400, 40041, 'An application command with that name already exists');
  }
}
