import test from 'ava';
import { describeProviderContract } from '@wmco/core/testing';
import { awsProvider } from './aws-provider.js';

describeProviderContract(test, awsProvider);
