import { defineMutant } from './mutant.js';

/** Key names go to a VARCHAR(255) column of a database that truncates instead of refusing. */
export default defineMutant({
  description: 'stores a key name of more than 255 characters cut to its first 255, and lists it so',
  breaks: { 'KEY-3': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    const create = store.createKey.bind(store);
    store.createKey = (account, name) => create(account, name.slice(0, 255));
  },
});
