import test from 'ava';
import { describeProviderContract } from '@wmco/core/testing';
import { noneProvider } from './none-provider.js';

describeProviderContract(test, noneProvider);
